import { adjacentTermPairs, GROUNDING, groundingOf } from './grounding';
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
  /** A chunk holding the given question terms, scored well above GROUNDING.minScore. */
  const chunk = (...found: number[]) => ({ found, score: 0.5 });
  // Weights of four question words: a heavy one (index 3) and three lighter ones.
  const idf = words(2, 2, 2, 4);

  it('grounds a chunk with most of the weight and every heavy word', () => {
    expect(groundingOf(idf, [], [chunk(0, 1, 3)])).toEqual([true]);
  });

  it('refuses a chunk that lacks the heavy word even when it has all the others', () => {
    // coverage 0.6 but the missing word carries 0.4 of the weight
    expect(groundingOf(idf, [], [chunk(0, 1, 2)])).toEqual([false]);
  });

  it('refuses a chunk with too little of the weight', () => {
    // coverage 0.2, though no single missed word weighs more than 0.2
    expect(groundingOf(idf, [], [chunk(0)])).toEqual([false]);
  });

  it('refuses a chunk that holds the words but scores low (a passing mention in a long text)', () => {
    expect(groundingOf(idf, [], [{ found: [0, 1, 3], score: 0.1 }])).toEqual([false]);
    expect(groundingOf(idf, [], [{ found: [0, 1, 3], score: 0.2 }])).toEqual([true]);
  });

  it('answers a paraphrase: a light missed word the knowledge base uses elsewhere, beside an unknown one', () => {
    // Word 4 (0.22 of the weight) occurs in other chunks but not this one; word 0 (0.2) occurs nowhere.
    const weights = words(2, 2, 2, 1.8, 2.2);
    weights[0].df = 0;
    expect(groundingOf(weights, [], [chunk(1, 2, 3)])).toEqual([true]);
    // Carrying a quarter of the weight, the missed word is the question's topic.
    expect(groundingOf(words(2, 2, 2, 1.5, 2.5), [], [chunk(0, 1, 2, 3)])).toEqual([false]);
  });

  it('refuses a question whose distinctive word the knowledge base never uses, however well a chunk matches the rest', () => {
    // "resize images to thumbnails with <a tool no document names>": the chunk has every other word.
    const weights = words(2.5, 1.2, 2.8, 3.5);
    weights[3].df = 0;
    expect(groundingOf(weights, [], [chunk(0, 1, 2), chunk(0, 2)])).toEqual([false, false]);
  });

  it('sums the weight of several unknown words', () => {
    // No unknown word alone carries more than 0.17 of the weight: two together (0.29) pass, three (0.46) do not.
    const weights = words(1.4, 1.1, 0.5, 1, 1.2, 1.3, 1.7, 1.7);
    weights[4].df = 0;
    weights[6].df = 0;
    weights[7].df = 1;
    expect(groundingOf(weights, [], [chunk(0, 1, 2, 3, 5, 7)])).toEqual([true]);
    weights[7].df = 0;
    expect(groundingOf(weights, [], [chunk(0, 1, 2, 3, 5)])).toEqual([false]);
  });

  it('answers despite a light unknown word (a typo, an identifier), judging coverage on the words the knowledge base knows', () => {
    // The unknown word carries 0.25 of the weight; the chunk holds 0.51 of the rest (0.38 of the whole).
    const weights = words(1.5, 1.4, 0.9, 1.1, 1.1);
    weights[0].df = 0;
    expect(groundingOf(weights, [], [chunk(1, 2)])).toEqual([true]);
    expect(groundingOf(weights, [], [chunk(1)])).toEqual([false]);
  });

  it('refuses a lone chunk holding half of a compound the question writes, unless another chunk corroborates it', () => {
    const weights = words(2, 2, 2, 2, 4, 8);
    const pairs: Array<[number, number]> = [[4, 5]];
    // Missing word 4 (0.2 of the weight) is written next to word 5, which the chunk has: 0.2 × 1.5 ≥ 0.25.
    const lone = chunk(0, 1, 2, 3, 5);
    expect(groundingOf(weights, pairs, [lone, chunk(0)])).toEqual([false, false]);
    expect(groundingOf(weights, [], [lone])).toEqual([true]);
    const other = chunk(0, 1, 2, 5);
    expect(groundingOf(weights, pairs, [lone, other])).toEqual([true, true]);
  });

  it('counts corroboration among the cited chunks only', () => {
    const weights = words(2, 2, 2, 2, 4, 8);
    const pairs: Array<[number, number]> = [[4, 5]];
    const half = chunk(0, 1, 2, 3, 5);
    expect(groundingOf(weights, pairs, [half, chunk(0), half], 2)).toEqual([false, false, false]);
  });

  it('grounds nothing for a question without weight or without a word the knowledge base knows', () => {
    expect(groundingOf([], [], [chunk()])).toEqual([false]);
    expect(groundingOf([{ idf: 3, df: 0 }], [], [chunk()])).toEqual([false]);
  });

  it('does not weigh up a missed word the knowledge base never uses', () => {
    const weights = words(2, 2, 2, 2, 4, 8);
    weights[4].df = 0;
    expect(groundingOf(weights, [[4, 5]], [chunk(0, 1, 2, 3, 5)])).toEqual([true]);
  });

  it('takes its thresholds as parameters, for the evaluation’s search', () => {
    expect(groundingOf(idf, [], [chunk(0, 1, 2)], 1, { ...GROUNDING, maxMissedShare: 0.45 })).toEqual([true]);
  });
});
