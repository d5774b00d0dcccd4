import { contentTerms } from './query-terms';

/**
 * The grounding rule's thresholds (see groundingOf). Chosen on SciFact's dev claims and the
 * platform evaluation's odd-id questions (docs/kb-retrieval-eval.md); the held-out claims and the
 * even-id questions check them.
 */
export interface GroundingParams {
  /**
   * The share of the question's weight carried by words the knowledge base never uses (df 0) must
   * stay below this. Such a word is in no chunk, so every chunk misses it: a question whose
   * distinctive words the knowledge base has never seen (a product, a language, a tool) is about
   * something else. Summed, so two unknown words weigh as much as one heavy one.
   */
  maxUnknownShare: number;
  /**
   * A chunk must contain at least this share of the weight the knowledge base could match at all
   * (the words it uses somewhere): unknown words are judged by maxUnknownShare alone, not twice.
   */
  minCoverage: number;
  /**
   * No single word the chunk lacks, of those the knowledge base uses elsewhere, may carry this share
   * of the question's weight or more. A lighter one is often a paraphrase (the chunk says "reduced"
   * where the question says "diminished"); a heavier one is the question's topic (a language, a
   * product the knowledge base mentions only in passing).
   */
  maxMissedShare: number;
  /**
   * The chunk's BM25 score over the query's ceiling (every term saturated), 0..1, must reach this:
   * a chunk matching the right words only once each, in a long text, is a passing mention.
   */
  minScore: number;
  /**
   * A missed word that the question writes next to a word the chunk does have ("index mappings",
   * "binary log") counts this much more: the chunk has half of a compound, which usually names a
   * different thing than the question's.
   */
  brokenPairFactor: number;
  /** Chunks passing the plain test that corroborate each other, so none needs the broken-pair test. */
  corroboratingChunks: number;
}

export const GROUNDING: GroundingParams = {
  maxUnknownShare: 0.3,
  minCoverage: 0.4,
  maxMissedShare: 0.25,
  minScore: 0.2,
  brokenPairFactor: 1.5,
  corroboratingChunks: 2,
};

/** What grounding needs to know about one chunk: the 0-based indexes of the question terms it contains, and its 0..1 score. */
export interface ChunkMatch {
  found: number[];
  score: number;
}

/**
 * Pairs of term indexes (into `terms`, as contentTerms returns them) that the question writes next
 * to each other: two content words with no stopword or punctuation between them.
 */
export function adjacentTermPairs(question: string, terms: string[]): Array<[number, number]> {
  const index = new Map(terms.map((t, i) => [t, i]));
  const pairs: Array<[number, number]> = [];
  for (const clause of question.split(/[,;:?!()[\]{}"]|\.(?:\s|$)/)) {
    const words = (clause.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => contentTerms(w)[0]);
    for (let i = 0; i + 1 < words.length; i++) {
      const a = words[i] === undefined ? undefined : index.get(words[i]);
      const b = words[i + 1] === undefined ? undefined : index.get(words[i + 1]);
      if (a !== undefined && b !== undefined && a !== b) pairs.push([a, b]);
    }
  }
  return pairs;
}

/**
 * The grounding decision for retrieved chunks, from the question terms' IDF weights and chunk
 * frequencies (in question order, as TermStats gives them). Nothing grounds a question whose
 * unknown words (df 0) carry maxUnknownShare of its weight. Otherwise a chunk passes the plain test
 * when it holds minCoverage of the known words' weight, lacks no known word weighing
 * maxMissedShare and scores minScore; it grounds an answer when it also passes with broken pairs
 * weighed up, or when at least corroboratingChunks of the `corroborators` (the chunks the chat
 * would cite) pass the plain test. One chunk that shares only part of a compound with the question
 * is not enough alone.
 */
export function groundingOf(
  terms: Array<{ idf: number; df: number }>,
  pairs: Array<[number, number]>,
  chunks: ChunkMatch[],
  corroborators = chunks.length,
  params: GroundingParams = GROUNDING,
): boolean[] {
  const idf = terms.map((t) => t.idf);
  const total = idf.reduce((s, w) => s + w, 0);
  const unknown = idf.reduce((s, w, i) => s + (terms[i].df === 0 ? w : 0), 0);
  const known = total - unknown;
  if (total <= 0 || known <= 0 || unknown / total >= params.maxUnknownShare) return chunks.map(() => false);
  const tests = chunks.map(({ found, score }) => {
    const has = new Set(found);
    const coverage = found.reduce((s, i) => s + (idf[i] ?? 0), 0) / known;
    let missed = 0;
    let missedInPair = 0;
    idf.forEach((w, i) => {
      if (has.has(i) || terms[i].df === 0) return;
      const share = w / total;
      const broken = pairs.some(([a, b]) => (a === i && has.has(b)) || (b === i && has.has(a)));
      missed = Math.max(missed, share);
      missedInPair = Math.max(missedInPair, broken ? share * params.brokenPairFactor : share);
    });
    const plain = coverage >= params.minCoverage && missed < params.maxMissedShare && score >= params.minScore;
    return { plain, strict: plain && missedInPair < params.maxMissedShare };
  });
  const corroborated = tests.slice(0, corroborators).filter((t) => t.plain).length >= params.corroboratingChunks;
  return tests.map((t) => t.strict || (t.plain && corroborated));
}
