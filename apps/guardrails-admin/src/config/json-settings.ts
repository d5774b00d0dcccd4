import { DEFAULT_SETTINGS, GuardrailsSettings, GuardrailsTables, validateSettingsPatch } from '@platform/guardrails';

const parseJsonObject = (name: string, raw: string | undefined): Record<string, unknown> => {
  if (raw === undefined || raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new Error(`${name} is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${name} must be a JSON object`);
  return value as Record<string, unknown>;
};

/**
 * The file defaults: built-in defaults overlaid with GUARDRAILS_SETTINGS_DEFAULTS, validated with the
 * same rules as a PUT so a bad value stops the boot naming the key instead of weakening a control.
 */
export function configuredDefaults(raw: string | undefined): GuardrailsSettings {
  const overrides = parseJsonObject('GUARDRAILS_SETTINGS_DEFAULTS', raw);
  if (Object.keys(overrides).length === 0) return { ...DEFAULT_SETTINGS };
  const patch = validateSettingsPatch({ settings: overrides });
  if (!patch.ok) {
    const detail = Object.entries(patch.errors).map(([k, errs]) => `${k}: ${errs.join('; ')}`).join(', ');
    throw new Error(`GUARDRAILS_SETTINGS_DEFAULTS is invalid (${detail})`);
  }
  return { ...DEFAULT_SETTINGS, ...patch.changes };
}

export function configuredTables(json: string | undefined): Partial<GuardrailsTables> {
  const raw = parseJsonObject('GUARDRAILS_TABLES', json);
  for (const [group, table] of Object.entries(raw)) {
    if (typeof table !== 'string') throw new Error(`GUARDRAILS_TABLES.${group} must be a string`);
  }
  return raw as Partial<GuardrailsTables>;
}
