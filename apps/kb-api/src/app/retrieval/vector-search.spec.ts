import type { RetrievedChunk } from './retrieval-types';
import { fuseRetrieval, reciprocalRankFusion, RRF_K, VectorHit } from './vector-search';

const base = { project_key: 'p', source_path: 'a.md', source_type: 'markdown', slug: 'a', title: 'A', heading_path: null, text: 't', chunk_hash: 'h' };
const lex = (chunk_id: number, document_id: number, score = 0.5): RetrievedChunk => ({ ...base, chunk_id, document_id, text_score: score, coverage: score, score, grounded: score >= 0.5 });
const vec = (chunk_id: number, document_id: number, similarity = 0.8): VectorHit => ({ ...base, chunk_id, document_id, similarity });
const ids = (cs: RetrievedChunk[]) => cs.map((c) => c.chunk_id);

describe('reciprocalRankFusion', () => {
  it('scores each chunk by the sum of 1/(60 + rank) over the lists it is in', () => {
    // Chunk 3 is second in both lists: 2/62 beats 1/61 for the first of a single list.
    const fused = reciprocalRankFusion([lex(1, 10), lex(3, 30), lex(4, 40)], [vec(2, 20), vec(3, 30)], { perDocument: 3 });
    expect(ids(fused)).toEqual([3, 1, 2, 4]);
    expect(RRF_K).toBe(60);
    expect(2 / (RRF_K + 2)).toBeGreaterThan(1 / (RRF_K + 1));
  });

  it('breaks equal fused scores by chunk id, so the order is stable', () => {
    expect(ids(reciprocalRankFusion([lex(9, 1)], [vec(4, 2)], { perDocument: 3 }))).toEqual([4, 9]);
  });

  it('keeps the lexical fields of a chunk found by both paths and raises its score to the similarity', () => {
    const [both] = reciprocalRankFusion([lex(1, 10, 0.3)], [vec(1, 10, 0.9)], { perDocument: 3 });
    expect(both).toMatchObject({ chunk_id: 1, coverage: 0.3, text_score: 0.3, score: 0.9, grounded: true });
    expect(both).not.toHaveProperty('similarity');
  });

  it('turns a chunk found only by meaning into a grounded chunk scored by its similarity', () => {
    const [only] = reciprocalRankFusion([], [vec(7, 70, 0.71234)], { perDocument: 3 });
    expect(only).toEqual({ ...base, chunk_id: 7, document_id: 70, text_score: 0, coverage: 0, score: 0.7123, grounded: true });
  });

  it('applies the per-document cap to the fused order', () => {
    const fused = reciprocalRankFusion([lex(1, 10), lex(2, 10), lex(3, 10), lex(4, 20)], [vec(5, 10), vec(1, 10)], { perDocument: 2 });
    expect(ids(fused)).toEqual([1, 5, 4]);
    expect(fused.filter((c) => c.document_id === 10)).toHaveLength(2);
  });

  it('honours another k: with k = 0 the top of one list outweighs agreement lower down', () => {
    const lexical = [lex(1, 1), lex(2, 2), lex(3, 3), lex(4, 4), lex(5, 5)];
    const vector = [vec(6, 6), vec(5, 5)];
    expect(ids(reciprocalRankFusion(lexical, vector, { perDocument: 3 })).slice(0, 3)).toEqual([5, 1, 6]);
    expect(ids(reciprocalRankFusion(lexical, vector, { perDocument: 3, k: 0 })).slice(0, 3)).toEqual([1, 6, 5]);
  });

  it('answers the lexical ranking unchanged (capped) when the vector list is empty', () => {
    expect(ids(reciprocalRankFusion([lex(5, 1), lex(2, 1), lex(8, 2)], [], { perDocument: 1 }))).toEqual([5, 8]);
  });
});

describe('fuseRetrieval', () => {
  const opts = { perDocument: 3, primary: 2, runnerUp: 2 };

  it('fuses the lexical answer with the vector hits, cuts primary and runner-up, and counts the new candidates', () => {
    const lexical = { terms: ['x'], primary: [lex(1, 1), lex(2, 2)], runner_up: [lex(3, 3)], candidates: 40, retrievers: ['lexical' as const] };
    const result = fuseRetrieval(lexical, [vec(3, 3), vec(4, 4), vec(5, 5)], opts);
    expect(result.terms).toEqual(['x']);
    expect(ids(result.primary)).toEqual([3, 1]);
    // 2 (second lexical) and 4 (second vector) tie at 1/62: the lower chunk id goes first.
    expect(ids(result.runner_up)).toEqual([2, 4]);
    expect(result.candidates).toBe(42);
  });

  it('answers the lexical result itself when the vector path found nothing', () => {
    const lexical = { terms: ['x'], primary: [lex(1, 1)], runner_up: [], candidates: 1, retrievers: ['lexical' as const] };
    expect(fuseRetrieval(lexical, [], opts)).toBe(lexical);
  });
});
