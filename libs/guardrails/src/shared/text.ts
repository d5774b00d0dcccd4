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
