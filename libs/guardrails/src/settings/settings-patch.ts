import { isWellFormedText } from '../shared/text';
import { isOverridableSetting, SETTING_VALIDATORS } from './allow-list';
import { reorderedRuleIds } from './setting-validators';
import { SettingKey, SettingsOverrides } from './setting-types';

export type SettingsPatchResult =
  | { ok: true; changes: SettingsOverrides; dropped: string[] }
  | { ok: false; errors: Record<string, string[]> };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deeper than any setting nests (a pattern map is two levels); the edge refuses JSON past 64. */
const MAX_TEXT_DEPTH = 64;

/**
 * Whether any string in a value, object keys included, holds an unpaired UTF-16 surrogate (what a
 * JSON `\ud800` escape decodes to). Such text is not UTF-8: the store cannot hold it (Postgres
 * refused it as a 503) and the screen would run a pattern nobody can read back. Too deep counts as
 * ill-formed: no setting nests that far, so nothing valid is refused by it.
 */
function holdsIllFormedText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return !isWellFormedText(value);
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_TEXT_DEPTH) return true;
  if (Array.isArray(value)) return value.some((item) => holdsIllFormedText(item, depth + 1));
  return Object.entries(value).some(([key, item]) => !isWellFormedText(key) || holdsIllFormedText(item, depth + 1));
}

/**
 * One setting's value checked: first that every string in it (keys of a pattern map included) is
 * UTF-8 text, for every key alike, then by the key's own validator. The single check both the PUT
 * path and the re-validation of stored overrides use, so no setting can skip the text check.
 */
function validateSetting(key: SettingKey, raw: unknown): { ok: true; value: unknown } | { ok: false; errors: string[] } {
  if (holdsIllFormedText(raw)) return { ok: false, errors: ['must be valid UTF-8 text'] };
  return SETTING_VALIDATORS[key](raw);
}

/**
 * What a PUT may not newly store though a stored row with it stays valid: rule ids the map cannot
 * keep in the order sent (see reorderedRuleIds). Refusing them on load would swap a running rule
 * set for the defaults on upgrade.
 */
function newValueErrors(key: SettingKey, value: unknown): string[] {
  if (key !== 'input_screen.patterns') return [];
  return reorderedRuleIds(value as Record<string, string>).map(
    (id) => `rule id "${id}" must not be a whole number: the rules would not run in the order sent`,
  );
}

/**
 * Validates a PUT /settings body `{ "settings": { "dotted.key": value } }`. Keys outside the
 * allow-list (infrastructure keys included) are dropped and listed in `dropped`; values are coerced
 * ("1" -> true). Any invalid value refuses the whole body, with every error keyed by its setting, so
 * nothing is half-written. A missing, empty or non-object `settings` is an error under `settings`.
 */
export function validateSettingsPatch(body: unknown): SettingsPatchResult {
  const settings = isPlainObject(body) ? body['settings'] : undefined;
  if (!isPlainObject(settings) || Object.keys(settings).length === 0) {
    return { ok: false, errors: { settings: ['must be a non-empty object of dotted setting keys'] } };
  }
  const changes: Record<string, unknown> = {};
  const dropped: string[] = [];
  const errors: Record<string, string[]> = {};
  for (const [key, raw] of Object.entries(settings)) {
    if (!isOverridableSetting(key)) {
      dropped.push(key);
      continue;
    }
    const result = validateSetting(key, raw);
    const refused = result.ok ? newValueErrors(key, result.value) : result.errors;
    if (refused.length) errors[key] = refused;
    else if (result.ok) changes[key] = result.value;
  }
  return Object.keys(errors).length
    ? { ok: false, errors }
    : { ok: true, changes: changes as SettingsOverrides, dropped };
}

/**
 * Stored overrides re-validated on load: one that no longer passes (written by an older version, or
 * edited by hand) is skipped rather than trusted, and reported so the host can log it.
 */
export function validStoredOverrides(stored: Record<string, unknown>): {
  overrides: SettingsOverrides;
  rejected: SettingKey[];
} {
  const overrides: Record<string, unknown> = {};
  const rejected: SettingKey[] = [];
  for (const [key, raw] of Object.entries(stored)) {
    if (!isOverridableSetting(key)) continue;
    const result = validateSetting(key, raw);
    if (result.ok) overrides[key] = result.value;
    else rejected.push(key);
  }
  return { overrides: overrides as SettingsOverrides, rejected };
}
