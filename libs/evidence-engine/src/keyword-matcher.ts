const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** The code point that ends just before `at` (stepping over a surrogate pair). */
function codePointBefore(text: string, at: number): string {
  if (at <= 0) return '';
  const low = text.charCodeAt(at - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && at >= 2 ? at - 2 : at - 1;
  return String.fromCodePoint(text.codePointAt(start)!);
}

function codePointAt(text: string, at: number): string {
  return at < text.length ? String.fromCodePoint(text.codePointAt(at)!) : '';
}

/**
 * Whether `keyword` (lowercase) occurs in `text` (lowercase) with no letter, digit or underscore
 * on either side: "proves" is not found in "improves", "life-threatening" is in
 * "life-threatening.".
 */
export function containsKeyword(text: string, keyword: string): boolean {
  for (let at = text.indexOf(keyword); at >= 0; at = text.indexOf(keyword, at + 1)) {
    const before = codePointBefore(text, at);
    const after = codePointAt(text, at + keyword.length);
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

/** The first keyword of the list found in the text, or null. */
export function firstKeyword(text: string, keywords: readonly string[]): string | null {
  return keywords.find((k) => containsKeyword(text, k)) ?? null;
}
