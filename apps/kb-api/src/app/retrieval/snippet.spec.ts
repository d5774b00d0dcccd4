import { isSpace, SNIPPET_CHARS, snippetOf } from './snippet';

/** What snippets were before: every whitespace run of the whole text rewritten, then cut. */
const rewrittenWhole = (text: string, max: number) => text.replace(/\s+/g, ' ').trim().slice(0, max);

describe('snippetOf', () => {
  it('collapses whitespace runs, trims, and cuts, as rewriting the whole text would', () => {
    expect(snippetOf('  Retrieval\tworks.\n\n  Ranked   results\u00a0follow.  ')).toBe('Retrieval works. Ranked results follow.');
    expect(snippetOf('')).toBe('');
    expect(snippetOf(' \n\t ')).toBe('');
    expect(snippetOf('word '.repeat(100))).toHaveLength(SNIPPET_CHARS);
    expect(snippetOf('abcdef ghij', 8)).toBe('abcdef g');
    expect(snippetOf('abcdef ghij', 7)).toBe('abcdef ');
  });

  it('agrees with the whole-text rewrite on generated text (every kind of whitespace, surrogates, long runs)', () => {
    const pieces = ['a', 'Wort', 'ü', '😀', '\ud800', ' ', '  ', '\n', '\t', '\r\n', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028', ' '.repeat(300), 'x'.repeat(300)];
    let seed = 1;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let n = 0; n < 2000; n++) {
      const length = Math.floor(next() * 120);
      const text = Array.from({ length }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      for (const max of [0, 1, 7, SNIPPET_CHARS, 10_000]) expect(snippetOf(text, max)).toBe(rewrittenWhole(text, max));
    }
  });

  it('knows whitespace exactly as \\s does, for every UTF-16 code unit', () => {
    const disagreements: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isSpace(c) !== /\s/.test(String.fromCharCode(c))) disagreements.push(c);
    expect(disagreements).toEqual([]);
  });

  it('answers the same for a chunk far longer than a snippet', () => {
    const long = `first words here ${'filler text '.repeat(200_000)}`;
    expect(snippetOf(long)).toBe(rewrittenWhole(long, SNIPPET_CHARS));
    const oneWord = 'x'.repeat(1_000_000);
    expect(snippetOf(` ${oneWord} `)).toBe(rewrittenWhole(oneWord, SNIPPET_CHARS));
  });
});
