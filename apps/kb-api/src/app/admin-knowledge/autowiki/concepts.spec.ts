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
});
