import { compileDelimitedPattern } from './delimited-pattern';

export type Mode = 'enforce' | 'monitor' | 'off';

type Validator = (value: unknown) => { ok: true; value: unknown } | { ok: false; error: string };

const bool: Validator = (v) => {
  if (v === true || v === false) return { ok: true, value: v };
  if (v === 1 || v === 0) return { ok: true, value: v === 1 };
  if (typeof v === 'string' && ['true', 'false', '1', '0'].includes(v.toLowerCase())) return { ok: true, value: ['true', '1'].includes(v.toLowerCase()) };
  return { ok: false, error: 'must be a boolean (true, false, 1, 0)' };
};
const oneOf = (...values: string[]): Validator => (v) =>
  typeof v === 'string' && values.includes(v) ? { ok: true, value: v } : { ok: false, error: `must be one of ${values.join(', ')}` };
const int = (min: number): Validator => (v) => {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n >= min ? { ok: true, value: n } : { ok: false, error: `must be an integer ${min === 0 ? '>= 0' : '> 0'}` };
};
const stringList: Validator = (v) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s.trim() !== '') ? { ok: true, value: v } : { ok: false, error: 'must be a list of non-empty strings' };
const text = (max: number): Validator => (v) =>
  typeof v === 'string' && [...v].length <= max ? { ok: true, value: v } : { ok: false, error: `must be a string of at most ${max} characters` };
const patternMap: Validator = (v) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: 'must be an object mapping rule ids to delimited patterns' };
  const problems: string[] = [];
  for (const [rule, pattern] of Object.entries(v)) {
    if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(rule)) problems.push(`rule id "${rule}" is not a valid identifier`);
    else {
      try {
        compileDelimitedPattern(pattern as string);
      } catch (e) {
        problems.push(`rule "${rule}" ${(e as Error).message}`);
      }
    }
  }
  return problems.length ? { ok: false, error: problems.join('; ') } : { ok: true, value: v };
};

const MODE = oneOf('enforce', 'monitor', 'off');

/** The spec's allow-list of runtime-overridable settings, each with its strict validator. */
export const SETTINGS_ALLOW_LIST: Record<string, Validator> = {
  'tool_firewall.enabled': bool,
  'tool_firewall.reject_unknown_arguments': bool,
  'input_screen.enabled': bool,
  'output_handler.enabled': bool,
  'output_handler.sanitize_html': bool,
  'output_handler.neutralize_markdown': bool,
  'output_handler.redact_pii': bool,
  'hitl.enabled': bool,
  'normalization.enabled': bool,
  'normalization.nfkc': bool,
  'normalization.strip_zero_width': bool,
  'normalization.casefold': bool,
  'normalization.decode_base64_blobs': bool,
  'normalization.fold_confusables': bool,
  'tool_authorization.enabled': bool,
  'tool_firewall.owner_keys': stringList,
  'hitl.destructive_tools': stringList,
  'input_screen.patterns': patternMap,
  'input_screen.refusal_message': text(2000),
  'normalization.max_prompt_length': int(1),
  'retention.days': int(0),
  'retention.strategy': oneOf('anonymize', 'purge', 'keep'),
  'output_handler.html_mode': oneOf('escape', 'allowlist'),
  'hitl.fallback': oneOf('deny', 'pass'),
  'modes.tool_firewall': MODE,
  'modes.input_screen': MODE,
  'modes.output_handler': MODE,
  'modes.hitl': MODE,
  'pattern_safety.on_match_error': oneOf('closed', 'open'),
  'tool_authorization.owner_key_depth': oneOf('top_level', 'recursive'),
  'tool_authorization.destructive_match': oneOf('exact', 'substring'),
  'audit_hygiene.prompt_storage': oneOf('redact', 'hash', 'truncate', 'raw'),
};

export type SettingsPatchResult =
  | { ok: true; values: Record<string, unknown> }
  | { ok: false; errors: Record<string, string> };

/**
 * Validates a PUT body's settings: keys outside the allow-list (including the read-only
 * infrastructure keys such as `audit.store`) are dropped silently; any invalid value rejects the
 * whole patch with every error keyed by setting, so nothing is half-written.
 */
export function validateSettingsPatch(patch: Record<string, unknown>): SettingsPatchResult {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [key, raw] of Object.entries(patch)) {
    const validate = SETTINGS_ALLOW_LIST[key];
    if (!validate) continue;
    const r = validate(raw);
    if (r.ok) values[key] = r.value;
    else errors[key] = r.error;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, values };
}

/** Posture of a control: Engaged (enforce and enabled), Observing (monitor), Disabled (off or disabled). */
export function postureOf(enabled: boolean, mode: Mode): 'Engaged' | 'Observing' | 'Disabled' {
  if (mode === 'off' || !enabled) return 'Disabled';
  return mode === 'monitor' ? 'Observing' : 'Engaged';
}
