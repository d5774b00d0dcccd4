import { globToRegex } from '../retrieval/retrieval.service';
import { contentTerms, orTsQuery } from '../retrieval/query-terms';
import { chunkMarkdown, splitFrontmatter, wikilinksOf } from './chunker';
import { htmlToMarkdown, markdownTitle, sourceTypeOf } from './convert';
import { detectLanguage } from './language';
import { normalizeSourcePath, slugOf } from './source-path';

describe('source paths', () => {
  it('normalises separators and refuses climbing or empty segments', () => {
    expect(normalizeSourcePath('\\docs//guides\\a.md/')).toBe('docs/guides/a.md');
    for (const bad of ['', '/', '../a.md', 'a/./b.md', 'a/../../b', 'a/ /b', 'a\u0000b', '\ud800', '\udc00.md', 'a/\udbff\u0041']) expect(normalizeSourcePath(bad)).toBeNull();
    // A surrogate pair is one character (an emoji), not a lone surrogate.
    expect(normalizeSourcePath('notes/\ud83d\ude00.md')).toBe('notes/\u{1F600}.md');
    expect(slugOf('guides/Getting Started — Über.md')).toBe('getting-started-uber');
  });
});

describe('chunking', () => {
  it('splits on headings outside fences, with heading paths, and strips the frontmatter', () => {
    const md = '---\ntitle: T\n---\nIntro text.\n# A\nalpha\n## B\n```\n# not a heading\n```\nbeta [[Other Page|label]]\n# C\ngamma';
    const chunks = chunkMarkdown(md);
    expect(chunks.map((c) => [c.heading_path, c.text.split('\n')[0]])).toEqual([
      [null, 'Intro text.'],
      ['A', '# A'],
      ['A > B', '## B'],
      ['C', '# C'],
    ]);
    expect(chunks[2].text).toContain('# not a heading');
    expect(chunks[2].wikilinks).toEqual(['other-page']);
    expect(splitFrontmatter(md).frontmatter).toBe('title: T');
  });

  it('caps long sections, splitting on paragraphs with an overlap', () => {
    const para = (n: number) => `Paragraph ${n} ` + 'word '.repeat(150);
    const chunks = chunkMarkdown(`# Long\n\n${Array.from({ length: 12 }, (_, i) => para(i)).join('\n\n')}`, { maxTokens: 400, overlapTokens: 20 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(1600);
    expect(chunks.every((c) => c.heading_path === 'Long')).toBe(true);
  });

  it('finds wikilinks once each', () => {
    expect(wikilinksOf('see [[A Page]], [[a page#x]] and [[B]]')).toEqual(['a-page', 'b']);
  });
});

describe('conversion', () => {
  it('knows the supported mime types', () => {
    expect(sourceTypeOf('text/markdown; charset=utf-8')).toBe('markdown');
    expect(sourceTypeOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('docx');
    expect(sourceTypeOf('image/png')).toBeNull();
  });

  it('turns HTML into headed text without scripts, and finds titles', () => {
    const r = htmlToMarkdown('<head><title>T &amp; U</title></head><h2>Part&nbsp;1</h2><p>a &lt; b</p><script>evil()</script><ul><li>x</li></ul>');
    expect(r.title).toBe('T & U');
    expect(r.markdown).toContain('## Part 1');
    expect(r.markdown).toContain('a < b');
    expect(r.markdown).not.toContain('evil');
    expect(markdownTitle('---\ntitle: "From FM"\n---\n# H1')).toBe('From FM');
    expect(markdownTitle('text\n# First')).toBe('First');
  });
});

describe('language and query terms', () => {
  it('picks a stemmer from stopwords, or none', () => {
    expect(detectLanguage('The keys are rotated and the tokens expire in time for the release.')).toBe('english');
    expect(detectLanguage('Die Schlüssel werden rotiert und das ist nicht mit dem Token zu verwechseln.')).toBe('german');
    expect(detectLanguage('kubectl get pods -n kube-system')).toBe('simple');
  });

  it('drops stopwords and quotes every term, so no input becomes a tsquery operator', () => {
    expect(contentTerms('How do I rotate the signing keys?')).toEqual(['rotate', 'signing', 'keys']);
    expect(orTsQuery(["it's", 'a|b'])).toBe("'it''s' | 'a|b'");
  });

  it('translates folder globs to anchored expressions', () => {
    const re = new RegExp(globToRegex('docs/**/*.md'));
    expect(re.test('docs/a/b/c.md')).toBe(true);
    expect(re.test('docs/c.md')).toBe(true);
    expect(re.test('other/docs/c.md')).toBe(false);
    expect(new RegExp(globToRegex('a?.txt')).test('ab.txt')).toBe(true);
  });
});
