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
