import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { QueryWord, TermStatsRow } from './term-stats';

/**
 * The tenant's BM25 statistics (kb_term_stats, kb_chunk_totals; the chunk write triggers keep them):
 * each question word analysed under every language the tenant's live chunks use, with its df, each
 * language's chunk and token totals, and the counters of changes to the tenant's chunks
 * (kb_chunk_generations) the in-memory index compares with, in the same round trip.
 */
@Injectable()
export class TermStatsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** `words` are the question words, each with its 1-based term `i` (the term itself and its one-word synonyms). */
  lookup(tenantId: string, words: QueryWord[]): Promise<TermStatsRow[]> {
    return this.db.query(
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
       SELECT 'total', 0, language::text, '', chunks::text, tokens::text FROM totals
       UNION ALL
       SELECT 'generation', 0, '', '', coalesce(max(g.generation), 0)::text, coalesce(max(g.epoch), 0)::text
         FROM kb_chunk_generations g WHERE g.tenant_id = $1`,
      [tenantId, words.map((f) => f.i), words.map((f) => f.w)],
    );
  }

  /**
   * Each word's lexemes under each of `languages` (text-search configurations), as to_tsvector
   * gives them: a word that is a stop word, or yields nothing, has no row. Reads no table.
   */
  analyse(words: string[], languages: string[]): Promise<Array<{ w: string; language: string; lexeme: string }>> {
    return this.db.query(
      `SELECT DISTINCT u.w, l.language::text AS language, x.lexeme
         FROM unnest($1::text[]) AS u(w), unnest($2::regconfig[]) AS l(language), unnest(to_tsvector(l.language, u.w)) AS x`,
      [words, languages],
    );
  }
}
