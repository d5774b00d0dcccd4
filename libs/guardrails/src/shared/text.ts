// Small text helpers shared by screening, settings validation and audit hygiene. Lengths in the spec
// are in characters (code points), while JS strings index UTF-16 code units.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Text that can be stored as UTF-8: a JS string with no unpaired surrogate. */
export function isWellFormedText(s: string): boolean {
  return !LONE_SURROGATE.test(s);
}

/** Unpaired surrogates (what invalid UTF-8 decodes to at best) become U+FFFD. */
export function toWellFormedText(s: string): string {
  return LONE_SURROGATE.test(s) ? s.replace(LONE_SURROGATES, '\uFFFD') : s;
}

/** Number of code points; a string can never have more code points than code units. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** The first `max` code points of `s` (never splits a surrogate pair). */
export function firstCodePoints(s: string, max: number): string {
  if (s.length <= max) return s;
  let units = 0;
  for (let n = 0; n < max && units < s.length; n++) {
    const c = s.charCodeAt(units);
    const d = s.charCodeAt(units + 1);
    units += c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  }
  return s.slice(0, units);
}

/** UTF-8 byte length of a well-formed string prefix (the audit stores spans as byte offsets). */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * Text as an audit store can keep it: Postgres text and jsonb hold no NUL, and UTF-8 holds no
 * unpaired surrogate (what invalid UTF-8 decodes to), so both become U+FFFD. The record still shows
 * that something was there, and no content can make an audit write fail.
 */
export function storableText(s: string): string {
  const wellFormed = toWellFormedText(s);
  return wellFormed.includes('\u0000') ? wellFormed.replaceAll('\u0000', '\uFFFD') : wellFormed;
}

/** `storableText` over every string of a JSON-like value, keys included. */
export function storableValue<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => storableValue(v, depth + 1)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), storableValue(v, depth + 1)])) as T;
}
