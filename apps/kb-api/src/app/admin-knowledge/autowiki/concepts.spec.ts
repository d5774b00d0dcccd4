import { relatedConcepts, renderConceptPage, selectConcepts } from './concepts';

const cand = (key: string, kind: 'heading' | 'term', docs: Array<[number, number]>) => ({ key, label: key, kind, documents: new Map(docs) });

describe('selectConcepts', () => {
  it('ranks by documents then key, folds aliases into their concept and drops suppressed ones', () => {
    const out = selectConcepts(
      [cand('rotation', 'term', [[1, 2], [2, 1]]), cand('rotate', 'term', [[3, 1]]), cand('noise', 'term', [[1, 1], [2, 1], [3, 1]]), cand('backup', 'heading', [[4, 1], [5, 1]])],
      [
        { id: 1, key: 'rotation', aliases: ['rotate'], suppressed: false },
        { id: 2, key: 'noise', aliases: [], suppressed: true },
      ],
      10,
    );
    expect(out.map((c) => [c.key, [...c.documents.keys()]])).toEqual([
      ['rotation', [1, 2, 3]],
      ['backup', [4, 5]],
    ]);
    expect(selectConcepts([cand('b', 'term', [[1, 1]]), cand('a', 'term', [[2, 1]])], [], 1).map((c) => c.key)).toEqual(['a']);
  });
});

describe('relatedConcepts and renderConceptPage', () => {
  it('relates concepts by shared documents and renders the strongest evidence first', () => {
    const related = relatedConcepts([
      { key: 'a', documents: [1, 2, 3] },
      { key: 'b', documents: [2, 3] },
      { key: 'c', documents: [3] },
    ]);
    expect(related.get('a')).toEqual([{ key: 'b', shared: 2 }]);
    const page = renderConceptPage(
      { label: 'Key rotation', kind: 'term', aliases: ['rotate'] },
      [
        { id: 1, slug: 'low', title: 'Low', project_key: 'p', source_path: 'low.md', occurrences: 9, evidence_rank: 10, evidence_label: null },
        { id: 2, slug: 'high', title: 'High', project_key: 'p', source_path: 'high.md', occurrences: 1, evidence_rank: 90, evidence_label: 'Policy' },
      ],
      [{ label: 'b', shared: 2 }],
    );
    expect(page).toContain('# Key rotation\n\nA key term used in 2 documents.\n\nAlso known as: rotate.');
    expect(page.indexOf('[[high]]')).toBeLessThan(page.indexOf('[[low]]'));
    expect(page).toContain('evidence Policy, rank 90; 1 mention)');
    expect(page).toContain('## Related concepts\n\n- b (2 shared documents)');
  });

  it('puts every label in as one literal line: no forged section, link, image or HTML', () => {
    const doc = (over: Partial<Parameters<typeof renderConceptPage>[1][number]>) => ({ id: 1, slug: 'a', title: 'A', project_key: 'p', source_path: 'a.md', occurrences: 1, evidence_rank: 1, evidence_label: null, ...over });
    const page = renderConceptPage(
      { label: 'Keys\n\n## Related concepts\n\n- [owned](javascript:alert(1))', kind: 'heading', aliases: ['<b>x</b>'] },
      [
        doc({ title: 'T <img src=x onerror=alert(1)>\r\n# Injected', source_path: 'dir/[[evil]].md', evidence_label: '*Policy*' }),
        doc({ id: 2, slug: 'b]] [x](javascript:1) [[c', title: '![i](https://evil.test/p.png) &lt;script&gt;' }),
      ],
      [{ label: '- 1. `code` | cell', shared: 2 }],
    );
    const lines = page.split('\n');
    expect(lines.filter((l) => l.startsWith('#'))).toEqual([
      '# Keys \\#\\# Related concepts - \\[owned\\](javascript:alert(1))',
      '## Documents',
      '## Related concepts',
    ]);
    expect(page).toContain('Also known as: \\<b\\>x\\</b\\>.');
    expect(page).toContain('- [[a]] T \\<img src=x onerror=alert(1)\\> \\# Injected (p/dir/\\[\\[evil\\]\\].md; evidence \\*Policy\\*, rank 1; 1 mention)');
    expect(page).toContain('- b\\]\\] \\[x\\](javascript:1) \\[\\[c !\\[i\\](https\\://evil.test/p.png) \\&lt;script\\&gt; (');
    expect(page).toContain('- \\- 1. \\`code\\` \\| cell (2 shared documents)');
    // Nothing unescaped is left that could open markup.
    for (const l of lines) expect(l.replace(/\\./g, '').replace(/^#{1,2} |^- |\[\[[a-z0-9-]+\]\]/g, '')).not.toMatch(/[[\]<>&`*|#]/);
  });
});

