import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { filterClauses } from './retrieval-filters';
import { chunkFieldsOf } from './retrieval-types';
import type { ChunkFields, RetrievalFilters } from './retrieval-types';
import type { ChunkGeneration } from './lexical-indexes';

/**
 * One lexical ranking, as RetrievalService plans it: which chunks to find (the finder terms in
 * tiers, best first) and how to score them (BM25 over the question's lexemes with the tenant's
 * statistics). Every query text is a to_tsquery expression of quoted lexemes (query-terms.ts).
 */
export interface LexicalRanking {
  /** The finder terms OR-ed: the rank of a found chunk. */
  finder: string;
  /** Every question term as a to_tsquery operand (coverage and grounding test each one). */
  terms: string[];
  /** The terms' IDF weights, in the order of `terms`. */
  idfs: number[];
  /** The lexemes the terms become under each language, `term` indexing `terms`. */
  lexemes: Array<{ term: number; language: string; lexeme: string }>;
  /** BM25's k1 and b, the title and heading-path weights, and the tenant's mean chunk length. */
  bm25: { k1: number; b: number; titleWeight: number; headingWeight: number; avgLength: number };
  /** The prefilter's tiers, best first; a lower tier is read only while the ones above hold fewer than `tierEnough` chunks. */
  tiers: string[];
  tierEnough: number;
  /** Chunks the tiers find in all. */
  prefilter: number;
  /** The text-search configurations of the tenant's live chunks (one match branch each). */
  languages: readonly string[];
  /** Candidates answered, best first. */
  limit: number;
  filters: RetrievalFilters;
  excludeFlagged: boolean;
}

/** A scored candidate: its fields, BM25, the IDF weight of the terms it holds and which (1-based). */
export type RankedCandidate = ChunkFields & {
  bm25: number;
  matched: number;
  found: number[];
};

/**
 * The lexical ranking over kb_chunks: Postgres full text, each indexed language matched with its
 * own stemmer and stop words (one GIN index), every chat filter applied in SQL with the tenant.
 */
@Injectable()
export class ChunkSearchRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  rank(tenantId: string, r: LexicalRanking): Promise<RankedCandidate[]> {
    const { k1, b, titleWeight, headingWeight, avgLength } = r.bm25;
    const params: unknown[] = [
      tenantId,
      r.finder,
      r.terms,
      r.lexemes.map((l) => l.language),
      r.idfs,
      r.lexemes.map((l) => l.lexeme),
      r.lexemes.map((l) => l.term + 1),
      [k1, b, titleWeight, headingWeight, Math.max(1, avgLength)],
    ];
    const p = (v: unknown) => `$${params.push(v)}`;
    // The chunk's tenant is tested where the chunks are matched (see tierCtes).
    const where = [`d.tenant_id = $1`, `d.deleted_at IS NULL`, `d.status = 'indexed'`, ...filterClauses(r.filters, p, { excludeFlagged: r.excludeFlagged })];
    const configs = r.languages;
    // Only the languages of the tenant's live chunks get a match branch (a chunk has its document's language): each
    // branch is one more GIN scan of every tier.
    const matching = (query: string) =>
      `(${configs.map((cfg) => `(c.language = '${cfg}'::regconfig AND c.tsv @@ to_tsquery('${cfg}', ${query}))`).join(' OR ')})`;
    // The finder query per chunk language, each parsed once per query rather than once per ranked chunk.
    const finderOf = `CASE c.language ${configs.map((cfg) => `WHEN '${cfg}'::regconfig THEN to_tsquery('${cfg}', $2)`).join(' ')} END`;
    // A tier excludes the chunks of the tiers above it and runs only while they hold fewer than `tierEnough` chunks, filling up
    // to the prefilter (a LIMIT of 0 never runs its scan).
    const tierCtes = r.tiers.map((query, i) => {
      const higher = Array.from({ length: i }, (_, h) => `t${h}`);
      const limit = higher.length
        ? `(SELECT CASE WHEN count(*) < ${r.tierEnough} THEN ${r.prefilter} - count(*) ELSE 0 END FROM (${higher.map((h) => `SELECT 1 FROM ${h}`).join(' UNION ALL ')}) h)`
        : r.prefilter;
      // The chunks are matched in a subquery of their own (OFFSET 0 keeps the planner from merging it): a tenant's
      // requests run under row-level security, and in a query that also reads the policed kb_documents Postgres
      // uses an index only for leakproof operators, which the full-text match is not. Matched in one query with the
      // documents, every tier was a sequential scan of the whole chunk table (docs/benchmarks.md).
      return `t${i} AS MATERIALIZED (
         SELECT c.id, ts_rank_cd(c.tsv, ${finderOf}, 1) AS rank
           FROM (SELECT * FROM kb_chunks c WHERE c.tenant_id = $1 AND ${matching(p(query))} OFFSET 0) c
           JOIN kb_documents d ON d.id = c.document_id
          WHERE ${[...where, ...higher.map((h) => `c.id NOT IN (SELECT id FROM ${h})`)].join(' AND ')}
          ORDER BY rank DESC, c.id
          LIMIT ${limit})`;
    });
    // Each query is parsed once per language (q). The prefiltered chunks' vectors are detoasted once
    // (tv). BM25 takes the chunk's length from `tokens` (stored at write time, KbChunkTokenCount) and
    // the weighted frequency of the question's lexemes (a position's weight says title, heading path or
    // text) from the vector cut down to those lexemes (a): ts_delete removes every other lexeme, in C,
    // so only the question's few lexemes are unnested. Unnesting the whole vector (every lexeme's
    // positions and weights) for both was most of the ranking's time over 100,000 chunks
    // (docs/benchmarks.md). Each term is tested against tv for the IDF weight of the terms the chunk
    // contains (coverage and grounding).
    return this.withoutJit((run) =>
      run<RankedCandidate[]>(
        `WITH ${tierCtes.join(',\n')},
       q AS (
         SELECT l.cfg::regconfig AS cfg, array_agg(to_tsquery(l.cfg::regconfig, u.t) ORDER BY u.i) AS terms
           FROM unnest('{${configs.join(',')}}'::text[]) AS l(cfg), unnest($3::text[]) WITH ORDINALITY AS u(t, i)
          GROUP BY l.cfg),
       p AS (SELECT $8::float8[] AS v),
       lx AS (SELECT * FROM unnest($4::text[], $6::text[], $7::int[]) AS l(language, lexeme, i))
       SELECT * FROM (
         SELECT x.chunk_id, x.document_id, x.project_key, x.source_path, x.source_type, x.slug, x.title, x.heading_path, x.text, x.chunk_hash,
                x.flagged,
                (SELECT coalesce(sum(f.idf * f.tf * (p.v[1] + 1) / (f.tf + p.v[1] * (1 - p.v[2] + p.v[2] * a.dl / p.v[5]))), 0)
                   FROM (SELECT ($5::float8[])[l.i] AS idf, sum(m.tf) AS tf
                           FROM unnest(a.lexemes, a.tfs) AS m(lexeme, tf) JOIN lx l ON l.lexeme = m.lexeme AND l.language = x.language::text
                          GROUP BY l.i) f)::float8 AS bm25,
                (SELECT coalesce(sum(w.idf), 0) FROM unnest(q.terms, $5::float8[]) AS w(tq, idf) WHERE x.tv @@ w.tq)::float8 AS matched,
                array(SELECT w.i::int FROM unnest(q.terms) WITH ORDINALITY AS w(tq, i) WHERE x.tv @@ w.tq ORDER BY w.i) AS found
           FROM (
             SELECT c.id::int AS chunk_id, d.id::int AS document_id, d.project_key, d.source_path, d.source_type, d.slug, d.title, c.heading_path, c.text, c.chunk_hash,
                    c.injection_flagged AS flagged, c.language, c.tsv || ''::tsvector AS tv, c.tokens
               FROM (${r.tiers.map((_, i) => `SELECT id, rank FROM t${i}`).join(' UNION ALL ')}) t
               JOIN kb_chunks c ON c.id = t.id JOIN kb_documents d ON d.id = c.document_id OFFSET 0) x
           JOIN q ON q.cfg = x.language, p,
           LATERAL (
             SELECT x.tokens AS dl,
                    array_agg(u.lexeme) AS lexemes,
                    array_agg((SELECT sum(CASE w.w WHEN 'A' THEN p.v[3] WHEN 'B' THEN p.v[4] ELSE 1 END) FROM unnest(u.weights) AS w(w))) AS tfs
               FROM unnest(ts_delete(x.tv, tsvector_to_array(ts_delete(x.tv, $6::text[])))) AS u) a) y
        ORDER BY y.bm25 DESC, y.matched DESC, y.chunk_id
        LIMIT ${Math.trunc(r.limit)}`,
        params,
      ),
    );
  }

  /**
   * Chunks ranked elsewhere (the in-memory index), read back in that order with the tenant, the
   * document's state and every filter applied here, at most `perDocument` of a document and `limit`
   * in all. `passed` counts the ranked chunks the filters let through, `capped` those of them the cap per document
   * keeps (the rows a larger `limit` could answer): a caller can read back fewer rows than it decides by.
   */
  async inOrder(
    tenantId: string,
    ids: number[],
    filters: RetrievalFilters,
    options: { excludeFlagged: boolean; perDocument: number; limit: number },
  ): Promise<{ rows: ChunkFields[]; passed: number; capped: number; generation: ChunkGeneration }> {
    const params: unknown[] = [tenantId, ids];
    const p = (v: unknown) => `$${params.push(v)}`;
    const where = [`d.tenant_id = $1`, `d.deleted_at IS NULL`, `d.status = 'indexed'`, ...filterClauses(filters, p, { excludeFlagged: options.excludeFlagged })];
    // Each id costs two index probes (the chunk, its document): the caller sends few ids, the cap per document and the
    // order are applied here, so only the rows answered carry their text out. The tenant's chunk change counters come
    // along, read in the same statement (one snapshot), on a row of their own when no chunk passes.
    const rows: Array<ChunkFields & { passed: string | null; capped: string | null; generation: string; epoch: string }> = await this.db.query(
      `SELECT g.generation::text, g.epoch::text, y.chunk_id, y.document_id, y.project_key, y.source_path, y.source_type, y.slug, y.title,
              y.heading_path, y.text, y.chunk_hash, y.flagged, y.passed, y.capped
         FROM (SELECT coalesce(max(generation), 0) AS generation, coalesce(max(epoch), 0) AS epoch
                 FROM kb_chunk_generations WHERE tenant_id = $1) g
         LEFT JOIN LATERAL (
           SELECT x.chunk_id, x.document_id, x.project_key, x.source_path, x.source_type, x.slug, x.title, x.heading_path, x.text,
                  x.chunk_hash, x.flagged, x.passed, count(*) OVER () AS capped, x.ord FROM (
             SELECT c.id::int AS chunk_id, d.id::int AS document_id, d.project_key, d.source_path, d.source_type, d.slug, d.title,
                    c.heading_path, c.text, c.chunk_hash, c.injection_flagged AS flagged, u.ord,
                    row_number() OVER (PARTITION BY d.id ORDER BY u.ord) AS nth, count(*) OVER () AS passed
               FROM unnest($2::bigint[]) WITH ORDINALITY AS u(id, ord)
               JOIN kb_chunks c ON c.id = u.id AND c.tenant_id = $1
               JOIN kb_documents d ON d.id = c.document_id
              WHERE ${where.join(' AND ')}) x
            WHERE x.nth <= ${p(Math.trunc(options.perDocument))}::int
            ORDER BY x.ord
            LIMIT ${p(Math.trunc(options.limit))}::int) y ON true
        ORDER BY y.ord`,
      params,
    );
    const generation = { chunks: Number(rows[0]?.generation ?? 0), epoch: Number(rows[0]?.epoch ?? 0) };
    const found = rows.filter((r) => r.chunk_id !== null);
    return { rows: found.map(chunkFieldsOf), passed: Number(found[0]?.passed ?? 0), capped: Number(found[0]?.capped ?? 0), generation };
  }

  /**
   * The tiers' summed cost estimates pass Postgres' JIT threshold although each tier reads few rows: compiling the plan would
   * cost far more than running it, so JIT is off for the query (SET LOCAL lasts until the transaction ends).
   */
  private withoutJit<T>(work: (run: <R>(sql: string, params: unknown[]) => Promise<R>) => Promise<T>): Promise<T> {
    return this.db.transaction(async (m) => {
      await m.query('SET LOCAL jit = off');
      return work((sql, params) => m.query(sql, params));
    });
  }
}
