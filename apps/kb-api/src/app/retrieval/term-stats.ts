import { languageKey, LexicalIndex } from './lexical-index';
import type { ChunkGeneration } from './lexical-indexes';

/** A term found in more than this share of a tenant's chunks says little about a chunk's topic. */
export const COMMON_SHARE = 0.05;

export interface TermStat {
  /** The term as a to_tsquery operand: a quoted lexeme, or a parenthesised OR of it and its synonyms. */
  term: string;
  /** Live chunks of the tenant containing the term (its lexemes under every indexed language), at most the tenant's chunk count. */
  df: number;
  /** df above the common limit: used to score, not to find candidates. */
  common: boolean;
  /** BM25's inverse document frequency, ln(1 + (N − df + 0.5) / (df + 0.5)). */
  idf: number;
}

/** One lexeme a question term becomes under one text-search configuration (`term` indexes the question terms). */
export interface QueryLexeme {
  term: number;
  language: string;
  lexeme: string;
}

export interface QueryStats {
  terms: TermStat[];
  lexemes: QueryLexeme[];
  /** Live chunks of the tenant. */
  chunks: number;
  /** Their mean length in tokens (title, heading path and text). */
  avgLength: number;
  /** The text-search configurations the tenant's live chunks use. */
  languages: string[];
  /** The tenant's chunk change counters when the statistics were read (kb_chunk_generations): the set of live chunks, and their content. */
  generation: { chunks: number; epoch: number };
}

/**
 * One row of the statistics lookup (term-stats.repository.ts): a question word's lexeme under one
 * language and its df, a language's totals, or the tenant's change counters (`n` the live-chunk
 * generation, `tokens` the content epoch).
 */
export interface TermStatsRow {
  kind: 'lexeme' | 'total' | 'generation';
  /** The question term (1-based) the lexeme stands for; 0 on a total. */
  i: number;
  language: string;
  lexeme: string;
  /** df of the lexeme, or the language's live chunks. */
  n: string;
  /** The language's tokens over its live chunks (0 on a lexeme). */
  tokens: string;
}

/**
 * Term statistics for BM25 from the per-tenant tables that triggers keep current with every chunk
 * write (migration KbBm25TermStats1764225000000): exact and fresh, so nothing is cached. Each
 * question term (and its one-word synonyms) is analysed by Postgres under each language the
 * tenant's chunks use, with that language's stemmer and stop words; its df is the sum over its
 * lexemes. `operands[i]` is term i as a to_tsquery operand (see termQuery).
 */
export function queryStatsOf(rows: TermStatsRow[], operands: string[]): QueryStats {
  const totals = rows.filter((r) => r.kind === 'total');
  const chunks = totals.reduce((s, r) => s + Number(r.n), 0);
  const tokens = totals.reduce((s, r) => s + Number(r.tokens), 0);
  const lexemes = rows.filter((r) => r.kind === 'lexeme').map((r) => ({ term: r.i - 1, language: r.language, lexeme: r.lexeme, df: Number(r.n) }));
  const limit = Math.max(20, Math.ceil(chunks * COMMON_SHARE));
  const terms = operands.map((term, i) => {
    const df = Math.min(chunks, lexemes.filter((l) => l.term === i).reduce((s, l) => s + l.df, 0));
    return { term, df, common: df > limit, idf: Math.log(1 + (chunks - df + 0.5) / (df + 0.5)) };
  });
  return {
    terms,
    lexemes: lexemes.filter((l) => l.df > 0).map(({ term, language, lexeme }) => ({ term, language, lexeme })),
    chunks,
    avgLength: chunks > 0 ? tokens / chunks : 0,
    languages: totals.map((r) => r.language),
    generation: generationOf(rows),
  };
}

function generationOf(rows: TermStatsRow[]): { chunks: number; epoch: number } {
  const row = rows.find((r) => r.kind === 'generation');
  return { chunks: Number(row?.n ?? 0), epoch: Number(row?.tokens ?? 0) };
}

/** A question word to look up: the word (a term or one of its one-word synonyms) and its 1-based term. */
export interface QueryWord {
  i: number;
  w: string;
}

/**
 * Each word's lexemes under each language of `index`'s live chunks (keyed `language NUL word`): what
 * the index remembers, and for the words it does not, Postgres's analysis (`analyse`:
 * term-stats.repository.ts), which the index then remembers. The answer is the question's own, so
 * words the index forgets meanwhile (to make room for other questions' words) still count.
 */
export async function analysedWords(
  index: LexicalIndex,
  words: QueryWord[],
  analyse: (words: string[], languages: string[]) => Promise<Array<{ w: string; language: string; lexeme: string }>>,
): Promise<Map<string, string[]>> {
  const languages = index.totals().map((t) => t.language);
  const analysed = new Map<string, string[]>();
  const unknown: string[] = [];
  for (const w of new Set(words.map((x) => x.w))) {
    for (const language of languages) {
      const lexemes = index.lexemesOf(language, w);
      if (lexemes) analysed.set(languageKey(language, w), lexemes);
      else if (unknown[unknown.length - 1] !== w) unknown.push(w);
    }
  }
  if (unknown.length === 0) return analysed;
  // Every unknown word gets an analysis under every language, an empty one where Postgres gave no lexeme.
  const learnt = new Map<string, string[]>();
  for (const language of languages) for (const w of unknown) learnt.set(languageKey(language, w), []);
  for (const row of await analyse(unknown, languages)) learnt.get(languageKey(row.language, row.w))?.push(row.lexeme);
  for (const [key, lexemes] of learnt) analysed.set(key, lexemes);
  for (const language of languages) for (const w of unknown) index.rememberLexemes(language, w, learnt.get(languageKey(language, w))!);
  return analysed;
}

/**
 * The statistics lookup's rows (TermStatsRepository.lookup) from a held index instead of the
 * database: each word's lexemes under each language of the index's live chunks (from
 * analysedWords), their document frequencies, each language's totals, and the change counters the
 * index reflects. For the chunks the index holds these are the database's numbers
 * (lexical-indexes.int-spec.ts compares the two). Undefined when a language of the index has no
 * analysis of some word (its first chunk arrived after the words were analysed): the caller then
 * reads the database's statistics.
 */
export function termStatsRowsOf(
  index: LexicalIndex,
  generation: ChunkGeneration,
  words: QueryWord[],
  analysed: Map<string, string[]>,
): TermStatsRow[] | undefined {
  const totals = index.totals();
  const rows: TermStatsRow[] = [];
  const seen = new Set<string>();
  for (const { i, w } of words) {
    for (const { language } of totals) {
      const lexemes = analysed.get(languageKey(language, w));
      if (lexemes === undefined) return undefined;
      for (const lexeme of lexemes) {
        const key = `${i}\u0000${language}\u0000${lexeme}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rows.push({ kind: 'lexeme', i, language, lexeme, n: String(index.documentFrequency(language, lexeme)), tokens: '0' });
      }
    }
  }
  for (const t of totals) rows.push({ kind: 'total', i: 0, language: t.language, lexeme: '', n: String(t.chunks), tokens: String(t.tokens) });
  rows.push({ kind: 'generation', i: 0, language: '', lexeme: '', n: String(generation.chunks), tokens: String(generation.epoch) });
  return rows;
}
