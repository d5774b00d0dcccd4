import { DataSource } from 'typeorm';

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
}

/**
 * Term statistics for BM25, read from the per-tenant tables that triggers keep current with every
 * chunk write (migration KbBm25TermStats1764225000000): exact and fresh, so nothing is cached.
 * Each question term (and its one-word synonyms) is analysed by Postgres under each language the
 * tenant's chunks use, with that language's stemmer and stop words; its df is the sum over its
 * lexemes.
 */
export class TermStats {
  constructor(private readonly db: DataSource) {}

  /**
   * `operands[i]` is term i as a to_tsquery operand (see termQuery), `words[i]` the words whose
   * lexemes stand for it (the term and its one-word synonyms).
   */
  async of(tenantId: string, operands: string[], words: string[][]): Promise<QueryStats> {
    const flat = words.flatMap((ws, i) => ws.map((w) => ({ i: i + 1, w })));
    const rows: Array<{ kind: 'lexeme' | 'total'; i: number; language: string; lexeme: string; n: string; tokens: string }> = await this.db.query(
      // The language stays a regconfig up to the join: a cast in the join condition is not leakproof, and under the
      // statistics table's row-level policy it would keep the primary key from being used (a scan of every tenant's terms).
      `WITH totals AS (
         SELECT language, chunks, tokens FROM kb_chunk_totals WHERE tenant_id = $1 AND chunks > 0),
       lex AS (
         SELECT DISTINCT u.i, t.language, x.lexeme
           FROM unnest($2::int[], $3::text[]) AS u(i, w), totals t, unnest(to_tsvector(t.language, u.w)) AS x)
       SELECT 'lexeme' AS kind, lex.i, lex.language::text AS language, lex.lexeme, coalesce(s.df, 0)::text AS n, '0' AS tokens
         FROM lex LEFT JOIN kb_term_stats s ON s.tenant_id = $1 AND s.language = lex.language AND s.lexeme = lex.lexeme
       UNION ALL
       SELECT 'total', 0, language::text, '', chunks::text, tokens::text FROM totals`,
      [tenantId, flat.map((f) => f.i), flat.map((f) => f.w)],
    );
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
    };
  }
}
