import { isOverridableSetting, SETTING_VALIDATORS } from './allow-list';
import { SettingKey, SettingsOverrides } from './setting-types';

export type SettingsPatchResult =
  | { ok: true; changes: SettingsOverrides; dropped: string[] }
  | { ok: false; errors: Record<string, string[]> };

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

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
    const result = SETTING_VALIDATORS[key](raw);
    if (result.ok) changes[key] = result.value;
    else errors[key] = result.errors;
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
    const result = SETTING_VALIDATORS[key](raw);
    if (result.ok) overrides[key] = result.value;
    else rejected.push(key);
  }
  return { overrides: overrides as SettingsOverrides, rejected };
}
