import { findBase64Blobs } from './base64-blobs';
import { encodedReadings } from './encoded-readings';
import { foldAsciiConfusables, foldConfusables } from './confusables';
import { invisiblesAsSpaces, joinLetterSpacedWords } from './separator-variants';
import { wellFormed } from './well-formed';

export interface NormalizationSettings {
  enabled: boolean;
  nfkc: boolean;
  strip_zero_width: boolean;
  casefold: boolean;
  fold_confusables: boolean;
  decode_base64_blobs: boolean;
}

/**
 * The text the rules run on. `base` is the normalized prompt; other readings of it (invisible
 * separators as spaces, letter-spaced words joined, simple encodings undone: encoded-readings.ts)
 * and decoded base64 blobs (themselves
 * normalized) follow it, one per line, in `text`. Spans at or past `base.length` fall in those.
 */
export interface NormalizedPrompt {
  text: string;
  base: string;
  variants: number;
  decodedBlobs: number;
}

/**
 * Invisible characters used to split trigger words: zero-width and bidi controls, word joiners,
 * soft hyphen, combining grapheme joiner, Mongolian vowel separator, Hangul fillers, variation
 * selectors and tag characters (both can smuggle hidden text).
 */
// Matching these invisible and combining characters one by one is the point here.
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\u180E\u00AD\u034F\u061C\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;
// C0/C1 controls are stripped on purpose; tab, LF, VT, FF and CR stay because they separate words.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F]/g;

/**
 * Tab to CR and printable ASCII, what most prompts consist of. NFKC leaves such text unchanged and
 * none of it is invisible or a stripped control, so for it those steps (the costly ones) are
 * skipped; only the ASCII look-alikes (the backtick) and case remain to fold.
 */
const PLAIN_ASCII = /^[\t-\r -~]*$/;

/** The steps after NFKC: strip invisible and control characters, fold look-alikes, casefold. */
function foldComposed(composed: string, s: NormalizationSettings, plainAscii: boolean): string {
  let t = composed;
  if (s.strip_zero_width && !plainAscii) t = t.replace(INVISIBLE, '').replace(CONTROL, '');
  if (s.fold_confusables) t = plainAscii ? foldAsciiConfusables(t) : foldConfusables(t);
  if (s.casefold) t = t.toLowerCase();
  return t;
}

/** One normalization pass, each step behind its toggle (order: NFKC, strip, fold, casefold). */
export function normalizeText(text: string, s: NormalizationSettings): string {
  const plainAscii = PLAIN_ASCII.test(text);
  return foldComposed(s.nfkc && !plainAscii ? text.normalize('NFKC') : text, s, plainAscii);
}

/** Blobs are searched before case and confusable folding: base64 is case-sensitive. */
function decodedTexts(composed: string, s: NormalizationSettings, depth: number, plainAscii = false): string[] {
  const searchable = s.strip_zero_width && !plainAscii ? composed.replace(INVISIBLE, '') : composed;
  return findBase64Blobs(searchable).flatMap(({ decoded }) => [
    normalizeText(decoded, s),
    // A blob inside a blob is decoded once more; deeper nesting is not followed.
    ...(depth > 1 ? decodedTexts(s.nfkc ? decoded.normalize('NFKC') : decoded, s, depth - 1) : []),
  ]);
}

/**
 * Normalizes a prompt for screening. Invalid UTF-16 (what broken UTF-8 arrives as) is scrubbed to
 * U+FFFD even with normalization off, so rules never see unpaired surrogates.
 */
export function normalizePrompt(prompt: string, s: NormalizationSettings): NormalizedPrompt {
  const clean = wellFormed(prompt);
  if (!s.enabled) return { text: clean, base: clean, variants: 0, decodedBlobs: 0 };
  const plainAscii = PLAIN_ASCII.test(clean);
  const composed = s.nfkc && !plainAscii ? clean.normalize('NFKC') : clean;
  const base = foldComposed(composed, s, plainAscii);
  const variants = readingsOf(base, composed, s, plainAscii);
  const decoded = s.decode_base64_blobs ? decodedTexts(composed, s, 2, plainAscii) : [];
  const extra = [...variants, ...decoded];
  return {
    text: extra.length ? `${base}\n${extra.join('\n')}` : base,
    base,
    variants: variants.length,
    decodedBlobs: decoded.length,
  };
}

/** The other readings of a normalized prompt (see separator-variants.ts), distinct from it. */
function readingsOf(base: string, composed: string, s: NormalizationSettings, plainAscii: boolean): string[] {
  const readings: string[] = [];
  const spaced = s.strip_zero_width && !plainAscii ? invisiblesAsSpaces(composed) : null;
  if (spaced !== null) readings.push(foldComposed(spaced, s, false));
  for (const reading of [base, ...readings]) {
    const joined = joinLetterSpacedWords(reading);
    if (joined !== null) readings.push(joined);
  }
  readings.push(...encodedReadings(base));
  return [...new Set(readings)].filter((r) => r !== base);
}
