import { contentTerms } from './query-terms';

/**
 * A chunk can ground an answer only when the words it contains carry at least this share of the
 * question's IDF weight.
 */
export const MIN_COVERAGE = 0.45;
/**
 * …and when no single question word it lacks carries this share or more: a chunk that matches the
 * question's common words but misses its one distinctive word (a product, a language, a tool the
 * knowledge base never mentions) is about something else.
 */
export const MAX_MISSED_SHARE = 0.25;
/**
 * A missed word that the question writes next to a word the chunk does have ("index mappings",
 * "binary log") counts this much more: the chunk has half of a compound, which usually names a
 * different thing than the question's. Only words the knowledge base uses somewhere count so: a
 * word it never uses is in no chunk, and the plain test already weighs it.
 */
export const BROKEN_PAIR_FACTOR = 1.5;
/** Chunks passing the plain test that corroborate each other, so none needs the broken-pair test. */
export const CORROBORATING_CHUNKS = 2;

/** What grounding needs to know about one chunk: the 0-based indexes of the question terms it contains. */
export interface ChunkMatch {
  found: number[];
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
 * frequencies (in question order, as TermStats gives them). A chunk passes
 * the plain test when it covers MIN_COVERAGE of the weight and misses no word weighing
 * MAX_MISSED_SHARE; it grounds an answer when it also passes with broken pairs weighed up, or when
 * at least CORROBORATING_CHUNKS of the `corroborators` (the chunks the chat would cite) pass the
 * plain test. One chunk that shares only part of a compound with the question is not enough alone.
 */
export function groundingOf(terms: Array<{ idf: number; df: number }>, pairs: Array<[number, number]>, chunks: ChunkMatch[], corroborators = chunks.length): boolean[] {
  const idf = terms.map((t) => t.idf);
  const total = idf.reduce((s, w) => s + w, 0);
  if (total <= 0) return chunks.map(() => false);
  const tests = chunks.map(({ found }) => {
    const has = new Set(found);
    const coverage = found.reduce((s, i) => s + (idf[i] ?? 0), 0) / total;
    let missed = 0;
    let missedInPair = 0;
    idf.forEach((w, i) => {
      if (has.has(i)) return;
      const share = w / total;
      const broken = terms[i].df > 0 && pairs.some(([a, b]) => (a === i && has.has(b)) || (b === i && has.has(a)));
      missed = Math.max(missed, share);
      missedInPair = Math.max(missedInPair, broken ? share * BROKEN_PAIR_FACTOR : share);
    });
    const plain = coverage >= MIN_COVERAGE && missed < MAX_MISSED_SHARE;
    return { plain, strict: plain && missedInPair < MAX_MISSED_SHARE };
  });
  const corroborated = tests.slice(0, corroborators).filter((t) => t.plain).length >= CORROBORATING_CHUNKS;
  return tests.map((t) => t.strict || (t.plain && corroborated));
}
