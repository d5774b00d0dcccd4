import { adjacentTermPairs, groundingOf } from './grounding';
import { contentTerms } from './query-terms';

describe('adjacentTermPairs', () => {
  it('pairs content words written next to each other, not across stopwords or punctuation', () => {
    const question = 'How do I define index mappings in Elasticsearch, quickly?';
    const terms = contentTerms(question);
    expect(terms).toEqual(['define', 'index', 'mappings', 'elasticsearch', 'quickly']);
    expect(adjacentTermPairs(question, terms)).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });

  it('splits hyphenated words into a pair and ignores a repeated word', () => {
    const question = 'Parse Accept-Language headers, the headers headers only';
    const terms = contentTerms(question);
    expect(adjacentTermPairs(question, terms).map(([a, b]) => `${terms[a]}+${terms[b]}`)).toEqual(['parse+accept', 'accept+language', 'language+headers']);
  });
});

describe('groundingOf', () => {
  const words = (...idf: number[]) => idf.map((w) => ({ idf: w, df: 1 }));
  // Weights of four question words: a heavy one (index 3) and three lighter ones.
  const idf = words(2, 2, 2, 4);

  it('grounds a chunk with most of the weight and every heavy word', () => {
    expect(groundingOf(idf, [], [{ found: [0, 1, 3] }])).toEqual([true]);
  });

  it('refuses a chunk that lacks the heavy word even when it has all the others', () => {
    // coverage 0.6 but the missing word carries 0.4 of the weight
    expect(groundingOf(idf, [], [{ found: [0, 1, 2] }])).toEqual([false]);
  });

  it('refuses a chunk with too little of the weight', () => {
    expect(groundingOf(idf, [], [{ found: [3] }])).toEqual([false]);
  });

  it('refuses a lone chunk holding half of a compound the question writes, unless another chunk corroborates it', () => {
    const weights = words(2, 2, 2, 2, 4, 8);
    const pairs: Array<[number, number]> = [[4, 5]];
    // Missing word 4 (0.2 of the weight) is written next to word 5, which the chunk has: 0.2 × 1.5 ≥ 0.25.
    const lone = { found: [0, 1, 2, 3, 5] };
    expect(groundingOf(weights, pairs, [lone, { found: [0] }])).toEqual([false, false]);
    expect(groundingOf(weights, [], [lone])).toEqual([true]);
    const other = { found: [0, 1, 2, 5] };
    expect(groundingOf(weights, pairs, [lone, other])).toEqual([true, true]);
  });

  it('counts corroboration among the cited chunks only', () => {
    const weights = words(2, 2, 2, 2, 4, 8);
    const pairs: Array<[number, number]> = [[4, 5]];
    const half = { found: [0, 1, 2, 3, 5] };
    expect(groundingOf(weights, pairs, [half, { found: [0] }, half], 2)).toEqual([false, false, false]);
  });

  it('grounds nothing for a question without weight', () => {
    expect(groundingOf([], [], [{ found: [] }])).toEqual([false]);
  });

  it('does not weigh up a missed word the knowledge base never uses', () => {
    const weights = words(2, 2, 2, 2, 4, 8);
    weights[4].df = 0;
    expect(groundingOf(weights, [[4, 5]], [{ found: [0, 1, 2, 3, 5] }])).toEqual([true]);
  });
});
