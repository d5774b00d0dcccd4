import { compileDelimitedPattern } from '../screen/delimited-pattern';
import { codePointLength, isWellFormedText } from '../shared/text';

/** A strict validator: the coerced value, or every reason the raw value is refused. */
export type Validator<T> = (raw: unknown) => { ok: true; value: T } | { ok: false; errors: string[] };

const refuse = (error: string) => ({ ok: false as const, errors: [error] });

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** true, false, 1, 0, and their string forms in any case; "" and "yes" are refused. */
export const booleanSetting: Validator<boolean> = (raw) => {
  if (raw === true || raw === 1) return { ok: true, value: true };
  if (raw === false || raw === 0) return { ok: true, value: false };
  if (typeof raw === 'string') {
    const s = raw.toLowerCase();
    if (s === 'true' || s === '1') return { ok: true, value: true };
    if (s === 'false' || s === '0') return { ok: true, value: false };
  }
  return refuse('must be a boolean: true, false, 1 or 0');
};

export const enumSetting =
  <T extends string>(...allowed: T[]): Validator<T> =>
  (raw) =>
    typeof raw === 'string' && (allowed as string[]).includes(raw)
      ? { ok: true, value: raw as T }
      : refuse(`must be one of: ${allowed.join(', ')}`);

/** Integers, or strings of digits (an optional minus), never floats; `min` is inclusive. */
export const integerSetting =
  (min: number): Validator<number> =>
  (raw) => {
    const n = typeof raw === 'string' && /^-?\d{1,15}$/.test(raw) ? Number(raw) : raw;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) return refuse('must be an integer');
    return n >= min ? { ok: true, value: n } : refuse(`must be an integer >= ${min}`);
  };

/**
 * A number from 0 to 1 inclusive: a JSON number, or a plain decimal string ("0.85"); no exponent,
 * sign, booleans, NaN or empty string.
 */
export const unitIntervalSetting: Validator<number> = (raw) => {
  const n = typeof raw === 'string' && /^\d(?:\.\d{1,12})?$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isFinite(n)) return refuse('must be a number from 0 to 1');
  return n >= 0 && n <= 1 ? { ok: true, value: n } : refuse('must be a number from 0 to 1');
};

/** A string of at most `max` characters (code points) that is valid UTF-8. */
export const textSetting =
  (max: number): Validator<string> =>
  (raw) => {
    if (typeof raw !== 'string') return refuse('must be a string');
    if (!isWellFormedText(raw)) return refuse('must be valid UTF-8 text');
    if (codePointLength(raw) > max) return refuse(`must be at most ${max} characters`);
    return { ok: true, value: raw };
  };

/** A JSON list of non-empty (not only whitespace) strings; [] is allowed. */
export const stringListSetting: Validator<string[]> = (raw) => {
  if (!Array.isArray(raw)) return refuse('must be a list of non-empty strings');
  const errors = raw.flatMap((item, i) =>
    typeof item === 'string' && item.trim() !== '' && isWellFormedText(item)
      ? []
      : [`item ${i} must be a non-empty string`],
  );
  return errors.length ? { ok: false, errors } : { ok: true, value: [...raw] as string[] };
};

const RULE_ID = /^[A-Za-z0-9_.:-]{1,100}$/;
/** Ids the screen itself reports, or that would collide with object internals. */
const RESERVED_RULE_IDS = new Set(['too_long', '__proto__', 'constructor', 'prototype']);

/** Largest array index + 1: JS enumerates keys that are array indices first, in numeric order. */
const MAX_INDEX_KEY = 2 ** 32 - 1;

/**
 * Rule ids a pattern map cannot keep in the order sent. An object lists keys that are array indices
 * ("0", "7", "42") first and in numeric order whatever their place in the JSON, so with such an id the
 * rule order (the first matching rule reports) would not be the order the admin sent. Checked on a
 * PUT only: a map stored before this check keeps running as it always has.
 */
export function reorderedRuleIds(patterns: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(patterns).filter((id) => /^(?:0|[1-9][0-9]{0,9})$/.test(id) && Number(id) < MAX_INDEX_KEY);
}

/**
 * rule_id -> fully delimited pattern. Every pattern is compiled; one bad pattern refuses the whole
 * map (each problem named by rule). `{}` is accepted and clears all rules.
 */
export const patternMapSetting: Validator<Record<string, string>> = (raw) => {
  if (!isPlainObject(raw)) return refuse('must be an object mapping rule ids to delimited patterns');
  const errors: string[] = [];
  for (const [rule, pattern] of Object.entries(raw)) {
    if (!RULE_ID.test(rule) || RESERVED_RULE_IDS.has(rule) || rule.startsWith('pattern_error')) {
      errors.push(`rule id "${rule}" must be 1-100 of A-Z a-z 0-9 _ . : - and not a reserved id`);
      continue;
    }
    if (typeof pattern !== 'string') {
      errors.push(`rule "${rule}" must be a string`);
      continue;
    }
    try {
      compileDelimitedPattern(pattern);
    } catch (e) {
      errors.push(`rule "${rule}" ${(e as Error).message}`);
    }
  }
  return errors.length
    ? { ok: false, errors }
    : { ok: true, value: Object.fromEntries(Object.entries(raw)) as Record<string, string> };
};
