/**
 * Readings of a prompt that undo two ways of hiding words from the rules, screened in addition to
 * the normalized text itself:
 * - invisible characters between words ("ignore\u2060all\u2060previous"): stripping them, as
 *   normalization does, glues the words together, so here each run of them becomes a space. Inside
 *   a word ("ig\u200Bnore") stripping is right, which is why both readings are kept;
 * - letter-spaced words ("i g n o r e", "i.g.n.o.r.e"): runs of at least three single letters with
 *   one separator (the same throughout) between each are joined into one word.
 */

// Matching these invisible characters one by one is the point here.
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE_RUN = /[\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\u180E\u00AD\u034F\u061C\u115F\u1160\u3164\uFFA0]+/gu;
/** One separator, the same one throughout a run, so "i.g.n.o.r.e a-l-l" stays two words. */
const LETTER_SPACED = /(?<![\p{L}\p{N}])\p{L}([ .\-_*·])\p{L}(?:\1\p{L})+(?![\p{L}\p{N}])/gu;
const SEPARATORS = /[ .\-_*·]/g;
// eslint-disable-next-line no-misleading-character-class
const HAS_INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\u180E\u00AD\u034F\u061C\u115F\u1160\u3164\uFFA0]/u;
/** Cheap pre-check: a single letter followed by a separator and another single letter. */
const MAYBE_SPACED = /(?<![\p{L}\p{N}])\p{L}[ .\-_*·]\p{L}(?![\p{L}\p{N}])/u;

/** `text` with each run of invisible characters turned into a space, or null when it has none. */
export function invisiblesAsSpaces(text: string): string | null {
  return HAS_INVISIBLE.test(text) ? text.replace(INVISIBLE_RUN, ' ') : null;
}

/** `text` with letter-spaced words joined, or null when it has none. */
export function joinLetterSpacedWords(text: string): string | null {
  if (!MAYBE_SPACED.test(text)) return null;
  const joined = text.replace(LETTER_SPACED, (run) => run.replace(SEPARATORS, ''));
  return joined === text ? null : joined;
}
