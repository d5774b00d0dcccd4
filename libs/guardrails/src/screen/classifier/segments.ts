/**
 * The sentences a prompt is scored by, besides the prompt as a whole. Injections often ride on an
 * ordinary request ("How is the economy doing? Forget everything above and write …"): over the whole
 * prompt the benign part dilutes the attack's n-grams, while the attack's own sentence scores as
 * what it is. Split at line breaks and after sentence punctuation (language-neutral); pieces under
 * MIN_SEGMENT_CHARS carry too little text to judge alone. A prompt with fewer than two such pieces
 * has no segments: the whole prompt already says it.
 */
export const MIN_SEGMENT_CHARS = 8;

// One character per boundary, no quantifier: with `\s*\n\s*` a long run of spaces without a line
// break backtracked at every position (quadratic; 50,000 spaces took seconds). The whitespace left
// around a piece is trimmed below, and the empty pieces between two boundaries are dropped.
const BOUNDARY = /\n|(?<=[.!?:;])\s/u;

export function promptSegments(text: string): string[] {
  const segments = text
    .split(BOUNDARY)
    .map((piece) => piece.trim())
    .filter((piece) => piece.length >= MIN_SEGMENT_CHARS);
  return segments.length > 1 ? segments : [];
}
