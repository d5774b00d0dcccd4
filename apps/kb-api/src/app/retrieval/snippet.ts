/** How much of a chunk a citation, a ranked result or a tool result shows. */
export const SNIPPET_CHARS = 240;

// `\S+` runs; global, reused: snippetOf is synchronous, so no two calls share lastIndex at once.
const WORD = /\S+/g;

/**
 * The start of `text` with each whitespace run as one space, without leading or trailing space,
 * cut at `max` characters: `text.replace(/\s+/g, ' ').trim().slice(0, max)`, but reading only as
 * far as the snippet needs. Chunks run to tens of kilobytes and a ranked answer shows a few dozen
 * snippets; rewriting every chunk whole was the largest allocation of a retrieve.
 */
export function snippetOf(text: string, max = SNIPPET_CHARS): string {
  let snippet = '';
  WORD.lastIndex = 0;
  for (let m = WORD.exec(text); m !== null && snippet.length < max; m = WORD.exec(text)) {
    snippet = snippet.length === 0 ? m[0] : `${snippet} ${m[0]}`;
  }
  WORD.lastIndex = 0;
  return snippet.length > max ? snippet.slice(0, max) : snippet;
}
