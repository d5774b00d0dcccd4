import { SETTINGS_ALLOW_LIST } from './allow-list';
import { DEFAULT_SETTINGS } from './defaults';
import { GuardrailsSettings, SettingKey, SettingsOverrides } from './setting-types';
import { validateSettingsPatch, validStoredOverrides } from './settings-patch';

/**
 * Effective settings: the file defaults overlaid with stored overrides. Overrides are re-validated,
 * so a stale or hand-edited row can never put an invalid value into a running control.
 */
export function effectiveSettings(
  defaults: Readonly<GuardrailsSettings> = DEFAULT_SETTINGS,
  overrides: Record<string, unknown> = {},
): GuardrailsSettings {
  const { overrides: valid } = validStoredOverrides(overrides);
  return { ...defaults, ...valid };
}

/** The nested view GET /settings returns: `{ hitl: { enabled: false, … }, … }`. */
export function nestSettings(settings: GuardrailsSettings): Record<string, Record<string, unknown>> {
  const nested: Record<string, Record<string, unknown>> = {};
  for (const key of SETTINGS_ALLOW_LIST) {
    const [group, name] = key.split('.');
    (nested[group] ??= {})[name] = settings[key];
  }
  return nested;
}

export interface SettingChange {
  key: SettingKey;
  old_value: unknown;
  new_value: unknown;
}

/** Key order is part of a value: pattern order decides which rule reports first. */
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** One change per key whose effective value differs; no-op writes produce nothing. */
export function diffSettings(before: GuardrailsSettings, after: GuardrailsSettings): SettingChange[] {
  return SETTINGS_ALLOW_LIST.filter((key) => !same(before[key], after[key])).map((key) => ({
    key,
    old_value: before[key],
    new_value: after[key],
  }));
}

export type SettingsUpdatePlan =
  | {
      ok: true;
      /** The full override set to store (previous overrides plus the effective changes). */
      overrides: SettingsOverrides;
      effective: GuardrailsSettings;
      changes: SettingChange[];
      dropped: string[];
    }
  | { ok: false; errors: Record<string, string[]> };

/**
 * The pure core of PUT /settings: validate the body, apply it over the current overrides and report
 * what effectively changed. Only keys whose effective value changes are written, so a no-op PUT
 * stores and logs nothing (and must not publish SettingsChanged).
 */
export function planSettingsUpdate(
  body: unknown,
  current: Record<string, unknown>,
  defaults: Readonly<GuardrailsSettings> = DEFAULT_SETTINGS,
): SettingsUpdatePlan {
  const patch = validateSettingsPatch(body);
  if (!patch.ok) return patch;
  return applySettingsPatch(patch, current, defaults);
}

/**
 * A validated patch over the current overrides: the effective settings after it and each change.
 * Cheap and synchronous, so a store can run it under its write lock on the overrides it just read.
 */
export function applySettingsPatch(
  patch: { changes: SettingsOverrides; dropped: string[] },
  current: Record<string, unknown>,
  defaults: Readonly<GuardrailsSettings> = DEFAULT_SETTINGS,
): SettingsUpdatePlan & { ok: true } {
  const before = effectiveSettings(defaults, current);
  const candidate = { ...before, ...patch.changes };
  const changes = diffSettings(before, candidate);
  const { overrides: kept } = validStoredOverrides(current);
  const overrides: Record<string, unknown> = { ...kept };
  for (const change of changes) overrides[change.key] = change.new_value;
  return { ok: true, overrides: overrides as SettingsOverrides, effective: candidate, changes, dropped: patch.dropped };
}
