/** How much of a chunk a citation, a ranked result or a tool result shows. */
export const SNIPPET_CHARS = 240;

/** What `\s` matches: ECMAScript's white space and line terminators (the Zs category, tab to carriage return, U+FEFF, U+2028/9). */
export function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The start of `text` with each whitespace run as one space, without leading or trailing space,
 * cut at `max` characters: `text.replace(/\s+/g, ' ').trim().slice(0, max)`, but reading only as
 * far as the snippet needs and allocating only the snippet. Chunks run to tens of kilobytes and a
 * ranked answer shows a few dozen snippets: rewriting every chunk whole was the largest allocation
 * of a retrieve, and a regex match object per word the next largest. `max` is a whole number of
 * characters, 0 or more.
 */
export function snippetOf(text: string, max = SNIPPET_CHARS): string {
  let snippet = '';
  let i = 0;
  while (snippet.length < max) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i === text.length) break;
    if (snippet.length > 0) snippet += ' ';
    const room = max - snippet.length;
    let j = i;
    while (j < text.length && j - i < room && !isSpace(text.charCodeAt(j))) j++;
    snippet += text.slice(i, j);
    i = j;
  }
  return snippet;
}
