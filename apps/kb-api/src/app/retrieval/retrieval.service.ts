import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IndirectInjectionScreen } from '../guardrails/indirect-injection';
import { TEXT_SEARCH_CONFIGS } from '../ingest/language';
import { adjacentTermPairs, groundingOf } from './grounding';
import { atLeastTsQuery, contentTerms } from './query-terms';
import { filterClauses } from './retrieval-filters';
import { alternativesOf, synonymCache, termQuery } from './synonyms';
import { COMMON_SHARE, TermStat, TermStats } from './term-stats';
import { fuseRetrieval, VectorSearch } from './vector-search';

export interface RetrievalFilters {
  project_keys?: string[];
  tag_slugs?: string[];
  source_types?: string[];
  canonical_types?: string[];
  connector_types?: string[];
  doc_ids?: number[];
  collection_id?: number;
  folder_globs?: string[];
  date_from?: string;
  date_to?: string;
}

export interface RetrievedChunk {
  chunk_id: number;
  document_id: number;
  project_key: string;
  source_path: string;
  source_type: string;
  slug: string;
  title: string;
  heading_path: string | null;
  text: string;
  chunk_hash: string;
  /** Full-text rank normalised to 0..1 over the candidates. */
  text_score: number;
  /** Share of the question's IDF weight carried by the terms found in the chunk, its heading or title. */
  coverage: number;
  score: number;
  /** The chunk can ground an answer (see groundingOf): the chat refuses when no primary chunk is. */
  grounded: boolean;
  /**
   * The ingest screen flagged it (indirect injection). Such chunks are only retrieved while flagged
   * content is quoted (`indirect_injection.flagged_content` = quote): a model then reads it as data.
   */
  flagged?: boolean;
}

export interface RetrievalResult {
  terms: string[];
  primary: RetrievedChunk[];
  runner_up: RetrievedChunk[];
  candidates: number;
  /** The retrievers that took part: `lexical` always, `vector` where an embeddings provider and the vectors table exist. */
  retrievers: Retriever[];
}

export type Retriever = 'lexical' | 'vector';

export interface RetrievalOptions {
  /** Chunks ranked in all (primary plus runners-up); the chat's default is PRIMARY + RUNNER_UP. */
  depth?: number;
}

const CANDIDATES = 100;
/**
 * The ranking's parameters. BM25 (k1, b) over the chunk's title (weight A), heading path (B) and
 * text (D), a term's frequency counting an occurrence in the title `titleWeight` times and in the
 * heading path `headingWeight` times (BM25F-style field weighting). The candidates BM25 scores come
 * from a prefilter through the GIN index alone: it reads the chunks holding the most finder terms
 * first, at least TIERS of them, then one fewer, down to two, then each finder term alone (see
 * lexical()), `prefilter` chunks at most, so the costly scoring reads a few hundred chunks instead
 * of every chunk holding any query term. The rarest `maxFinders` terms find.
 */
export interface RankingParams {
  k1: number;
  b: number;
  titleWeight: number;
  headingWeight: number;
  maxFinders: number;
  prefilter: number;
}
export const RANKING: RankingParams = { k1: 1.8, b: 0.75, titleWeight: 2, headingWeight: 1.5, maxFinders: 6, prefilter: 400 };
/** Overrides of RANKING, for the evaluation's parameter search only. */
export const RANKING_PARAMS = Symbol('kb-api.RANKING_PARAMS');
const TIERS = 4;
const PRIMARY = 8;
const PER_DOCUMENT = 3;
const RUNNER_UP = 15;
/** The deepest ranking a caller may ask for (POST /api/kb/retrieve's top_k). */
export const MAX_DEPTH = 100;

export { globToRegex } from './retrieval-filters';

type CandidateRow = Omit<RetrievedChunk, 'text_score' | 'coverage' | 'score' | 'grounded'> & {
  rank: number;
  bm25: number;
  matched: number;
  found: number[];
};

/**
 * BM25 over Postgres full text: each indexed language is matched with its own stemmer and stop
 * words (one GIN index), every chat filter is applied in SQL with the tenant. A question, claim or
 * keyword list is an OR of its analysed terms, so a long query needs no chunk to hold every word.
 * Document frequencies and lengths are the tenant's own, kept current by triggers on every chunk
 * write (term-stats.ts). The distinctive terms find the candidates; BM25 with title and heading
 * weighting ranks them, keeping at most three chunks per document. A question word with synonyms
 * (the tenant's synonym sets) counts as found wherever the word or one of its synonyms is. Which
 * question words each chunk contains also decides whether it can ground an answer (grounding.ts).
 */
@Injectable()
export class RetrievalService {
  private readonly termStats: TermStats;
  private readonly vectors: VectorSearch;
  private readonly ranking: RankingParams;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Optional() @Inject(RANKING_PARAMS) ranking?: Partial<RankingParams>,
    @Optional() private readonly indirect?: IndirectInjectionScreen,
  ) {
    this.termStats = new TermStats(db);
    this.vectors = new VectorSearch(db);
    this.ranking = { ...RANKING, ...ranking };
  }

  /** Full text, fused by reciprocal rank with vector similarity where pgvector and an embedding provider exist (vector-search.ts). */
  async retrieve(
    tenantId: string,
    question: string,
    filters: RetrievalFilters = {},
    options: RetrievalOptions = {},
  ): Promise<RetrievalResult> {
    const depth = Math.min(MAX_DEPTH, Math.max(PRIMARY + RUNNER_UP, options.depth ?? 0));
    // Flagged chunks are left out unless the setting quotes them (read per query: it changes live).
    const excludeFlagged = (this.indirect?.handling ?? 'exclude') === 'exclude';
    const [lexical, vector] = await Promise.all([
      this.lexical(tenantId, question, filters, depth, excludeFlagged),
      this.vectors.search(tenantId, question, filters, { excludeFlagged }),
    ]);
    const fused = fuseRetrieval(lexical, vector, {
      perDocument: PER_DOCUMENT,
      primary: PRIMARY,
      runnerUp: depth - PRIMARY,
    });
    return { ...fused, retrievers: this.vectors.enabled ? ['lexical', 'vector'] : ['lexical'] };
  }

  /**
   * The ranking alone, best first, one entry per chunk: the chat's primary chunks then its
   * runners-up, so POST /api/kb/retrieve, the MCP search tools and the chat share one order.
   */
  async ranked(
    tenantId: string,
    query: string,
    filters: RetrievalFilters,
    topK: number,
  ): Promise<{ chunks: RetrievedChunk[]; candidates: number; retrievers: Retriever[] }> {
    const found = await this.retrieve(tenantId, query, filters, { depth: topK });
    return { chunks: [...found.primary, ...found.runner_up].slice(0, topK), candidates: found.candidates, retrievers: found.retrievers };
  }

  private async lexical(
    tenantId: string,
    question: string,
    filters: RetrievalFilters,
    depth: number,
    excludeFlagged: boolean,
  ): Promise<RetrievalResult> {
    const terms = contentTerms(question).slice(0, 32);
    const empty: RetrievalResult = { terms, primary: [], runner_up: [], candidates: 0, retrievers: ['lexical'] };
    if (terms.length === 0) return empty;
    // A word with synonyms is searched, counted and scored as the OR of the word and its synonyms.
    const alternatives = alternativesOf(
      terms,
      await synonymCache.setsOf(this.db, tenantId),
      filters.project_keys,
    );
    const { k1, b, titleWeight, headingWeight, maxFinders, prefilter } = this.ranking;
    const { terms: stats, lexemes, avgLength, chunks, languages } = await this.termStats.of(
      tenantId,
      terms.map((t) => termQuery(t, alternatives.get(t))),
      terms.map((t) => [t, ...(alternatives.get(t) ?? []).filter((a) => a.length === 1).map((a) => a[0])]),
    );
    // Candidates are found by the distinctive terms; common ones only score (and stay cheap to match).
    const present = stats.filter((s) => s.df > 0);
    if (present.length === 0) return empty;
    const finders = present.filter((s) => !s.common);
    const find = (finders.length ? finders : present)
      .sort((a, b) => a.df - b.df)
      .slice(0, finders.length ? maxFinders : 2);
    const totalWeight = stats.reduce((sum, s) => sum + s.idf, 0);
    const params: unknown[] = [
      tenantId,
      find.map((s) => s.term).join(' | '),
      stats.map((s) => s.term),
      lexemes.map((l) => l.language),
      stats.map((s) => s.idf),
      lexemes.map((l) => l.lexeme),
      lexemes.map((l) => l.term + 1),
      [k1, b, titleWeight, headingWeight, Math.max(1, avgLength)],
    ];
    const p = (v: unknown) => `$${params.push(v)}`;
    // The chunk's tenant is tested where the chunks are matched (see tierCtes).
    const where = [
      `d.tenant_id = $1`,
      `d.deleted_at IS NULL`,
      `d.status = 'indexed'`,
      ...filterClauses(filters, p, { excludeFlagged }),
    ];
    // Only the languages of the tenant's live chunks get a match branch (a chunk has its document's language): each
    // branch is one more GIN scan of every tier.
    const matching = (configs: readonly string[], query: string) =>
      `(${configs.map((cfg) => `(c.language = '${cfg}'::regconfig AND c.tsv @@ to_tsquery('${cfg}', ${query}))`).join(' OR ')})`;
    // Tiers, best first: at least k finder terms for k = TIERS..2, then each finder term alone, rarest first (a chunk holding one
    // finder term scores mostly by that term's weight). A tier excludes the chunks of the tiers above it and runs only while they
    // hold fewer than half of CANDIDATES chunks (the rerank rarely prefers a chunk with fewer finder terms), filling up to
    // PREFILTER (a LIMIT of 0 never runs its scan).
    const operands = find.map((s) => s.term);
    const top = Math.min(TIERS, operands.length);
    const tierQueries = [
      ...Array.from({ length: Math.max(0, top - 1) }, (_, i) => atLeastTsQuery(top - i, operands)),
      ...operands,
    ];
    // The finder query per chunk language, each parsed once per query rather than once per ranked chunk.
    const finderOf = (configs: readonly string[]) =>
      `CASE c.language ${configs.map((cfg) => `WHEN '${cfg}'::regconfig THEN to_tsquery('${cfg}', $2)`).join(' ')} END`;
    const tierCtes = (configs: readonly string[]) =>
      tierQueries.map((query, i) => {
        const higher = Array.from({ length: i }, (_, h) => `t${h}`);
        const limit = higher.length
          ? `(SELECT CASE WHEN count(*) < ${CANDIDATES / 2} THEN ${prefilter} - count(*) ELSE 0 END FROM (${higher.map((h) => `SELECT 1 FROM ${h}`).join(' UNION ALL ')}) h)`
          : prefilter;
        // The chunks are matched in a subquery of their own (OFFSET 0 keeps the planner from merging it): a tenant's
        // requests run under row-level security, and in a query that also reads the policed kb_documents Postgres
        // uses an index only for leakproof operators, which the full-text match is not. Matched in one query with the
        // documents, every tier was a sequential scan of the whole chunk table (docs/benchmarks.md).
        return `t${i} AS MATERIALIZED (
         SELECT c.id, ts_rank_cd(c.tsv, ${finderOf(configs)}, 1) AS rank
           FROM (SELECT * FROM kb_chunks c WHERE c.tenant_id = $1 AND ${matching(configs, p(query))} OFFSET 0) c
           JOIN kb_documents d ON d.id = c.document_id
          WHERE ${[...where, ...higher.map((h) => `c.id NOT IN (SELECT id FROM ${h})`)].join(' AND ')}
          ORDER BY rank DESC, c.id
          LIMIT ${limit})`;
      });
    // The languages of the tenant's live chunks, from its statistics (kb_chunk_totals) rather than a scan of its documents:
    // they include every indexed document's language, and a branch for a language whose documents are all pending
    // matches nothing.
    const configs = TEXT_SEARCH_CONFIGS.filter((cfg) => languages.includes(cfg));
    if (configs.length === 0) return empty;
    // Each query is parsed once per language (q). The prefiltered chunks' vectors are detoasted once
    // (tv) and walked once (a): the walk counts the chunk's tokens (its length, as kb_tsv_tokens counts
    // them) and keeps the weighted frequency of the question's lexemes (a position's weight says title,
    // heading path or text) for BM25; a second walk for the length alone cost a third of the ranking
    // over 100,000 chunks (docs/benchmarks.md). Each term is tested against tv for the IDF weight of
    // the terms the chunk contains (coverage and grounding).
    const rows = await this.withoutJit((run) =>
      run<CandidateRow[]>(
        `WITH ${tierCtes(configs).join(',\n')},
       q AS (
         SELECT l.cfg::regconfig AS cfg, array_agg(to_tsquery(l.cfg::regconfig, u.t) ORDER BY u.i) AS terms
           FROM unnest('{${configs.join(',')}}'::text[]) AS l(cfg), unnest($3::text[]) WITH ORDINALITY AS u(t, i)
          GROUP BY l.cfg),
       p AS (SELECT $8::float8[] AS v),
       lx AS (SELECT * FROM unnest($4::text[], $6::text[], $7::int[]) AS l(language, lexeme, i))
       SELECT * FROM (
         SELECT x.chunk_id, x.document_id, x.project_key, x.source_path, x.source_type, x.slug, x.title, x.heading_path, x.text, x.chunk_hash,
                x.flagged, x.rank::float8 AS rank,
                (SELECT coalesce(sum(f.idf * f.tf * (p.v[1] + 1) / (f.tf + p.v[1] * (1 - p.v[2] + p.v[2] * a.dl / p.v[5]))), 0)
                   FROM (SELECT ($5::float8[])[l.i] AS idf, sum(m.tf) AS tf
                           FROM unnest(a.lexemes, a.tfs) AS m(lexeme, tf) JOIN lx l ON l.lexeme = m.lexeme AND l.language = x.language::text
                          GROUP BY l.i) f)::float8 AS bm25,
                (SELECT coalesce(sum(w.idf), 0) FROM unnest(q.terms, $5::float8[]) AS w(tq, idf) WHERE x.tv @@ w.tq)::float8 AS matched,
                array(SELECT w.i::int FROM unnest(q.terms) WITH ORDINALITY AS w(tq, i) WHERE x.tv @@ w.tq ORDER BY w.i) AS found
           FROM (
             SELECT c.id::int AS chunk_id, d.id::int AS document_id, d.project_key, d.source_path, d.source_type, d.slug, d.title, c.heading_path, c.text, c.chunk_hash,
                    c.injection_flagged AS flagged, c.language, c.tsv || ''::tsvector AS tv, t.rank
               FROM (${tierQueries.map((_, i) => `SELECT id, rank FROM t${i}`).join(' UNION ALL ')}) t
               JOIN kb_chunks c ON c.id = t.id JOIN kb_documents d ON d.id = c.document_id OFFSET 0) x
           JOIN q ON q.cfg = x.language, p,
           LATERAL (
             SELECT sum(coalesce(array_length(u.positions, 1), 1)) AS dl,
                    array_agg(u.lexeme) FILTER (WHERE u.lexeme = ANY($6::text[])) AS lexemes,
                    array_agg((SELECT sum(CASE w.w WHEN 'A' THEN p.v[3] WHEN 'B' THEN p.v[4] ELSE 1 END) FROM unnest(u.weights) AS w(w)))
                      FILTER (WHERE u.lexeme = ANY($6::text[])) AS tfs
               FROM unnest(x.tv) AS u) a) y
        ORDER BY y.bm25 DESC, y.matched DESC, y.chunk_id
        LIMIT ${CANDIDATES}`,
        params,
      ),
    );
    const maxRank = Math.max(0, ...rows.map((r) => r.rank));
    const found = new Map(rows.map((r) => [r.chunk_id, r.found.map((i) => i - 1)]));
    // BM25's ceiling for this query: every term saturated. The score is BM25 over it, 0..1.
    const ceiling = totalWeight * (k1 + 1);
    const scored = rows.map(({ rank, bm25, matched, found: _found, ...r }) => {
      const coverage = matched / totalWeight;
      const textScore = maxRank > 0 ? rank / maxRank : 0;
      const score = ceiling > 0 ? Math.min(1, bm25 / ceiling) : 0;
      return {
        ...r,
        text_score: round(textScore),
        coverage: round(coverage),
        score: round(score),
        grounded: false,
      };
    });
    // Rows come best first (BM25, then coverage); rounding the score must not reorder them.
    const perDoc = new Map<number, number>();
    const kept: RetrievedChunk[] = [];
    for (const c of scored) {
      const n = perDoc.get(c.document_id) ?? 0;
      if (n >= PER_DOCUMENT) continue;
      perDoc.set(c.document_id, n + 1);
      kept.push(c);
    }
    const shown = kept.slice(0, depth);
    const grounded = groundingOf(
      groundingWeights(stats, chunks),
      adjacentTermPairs(question, terms),
      shown.map((c) => ({ found: found.get(c.chunk_id) ?? [] })),
      PRIMARY,
    );
    shown.forEach((c, i) => (c.grounded = grounded[i]));
    return {
      terms,
      primary: shown.slice(0, PRIMARY),
      runner_up: shown.slice(PRIMARY),
      candidates: rows.length,
      retrievers: ['lexical'],
    };
  }

  /**
   * The tiers' summed cost estimates pass Postgres' JIT threshold although each tier reads few rows: compiling the plan would
   * cost far more than running it, so JIT is off for the query (SET LOCAL lasts until the transaction ends).
   */
  private withoutJit<T>(
    work: (run: <R>(sql: string, params: unknown[]) => Promise<R>) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction(async (m) => {
      await m.query('SET LOCAL jit = off');
      return work((sql, params) => m.query(sql, params));
    });
  }
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * The weights grounding judges with: BM25's IDF, except that a common term (df above the common
 * limit) weighs as if it were just over the limit. A question's common words then keep a floor of
 * weight, so a chunk that lacks one of them ("mappings" beside "index") still misses something;
 * the grounding thresholds were chosen with this floor (docs/kb-retrieval-eval.md).
 */
export function groundingWeights(stats: TermStat[], chunks: number): TermStat[] {
  const limit = Math.max(20, Math.ceil(chunks * COMMON_SHARE));
  return stats.map((s) => {
    if (s.df <= limit) return s;
    const df = limit + 1;
    const n = Math.max(chunks, df);
    return { ...s, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) };
  });
}
