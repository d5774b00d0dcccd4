import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TEXT_SEARCH_CONFIGS } from '../ingest/language';
import { adjacentTermPairs, groundingOf } from './grounding';
import { atLeastTsQuery, contentTerms } from './query-terms';
import { filterClauses } from './retrieval-filters';
import { alternativesOf, synonymCache, termQuery } from './synonyms';
import { TermStats } from './term-stats';
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
 * Chunks taken by full-text rank before the per-term scoring, which reads every term against every
 * chunk: it bounds a question's cost on a large knowledge base (the rerank then picks CANDIDATES).
 */
const PREFILTER = 400;
/**
 * The prefilter reads the chunks holding the most finder terms first: at least TIERS of them, then
 * one fewer, down to two, then each finder term alone (see lexical()). A tier is found through the
 * GIN index alone and is small, so the costly rank runs on a few hundred chunks instead of every
 * chunk holding any finder term. The rarest MAX_FINDERS terms find.
 */
const TIERS = 4;
const MAX_FINDERS = 6;
const PRIMARY = 8;
const PER_DOCUMENT = 3;
const RUNNER_UP = 15;
/** The deepest ranking a caller may ask for (POST /api/kb/retrieve's top_k). */
export const MAX_DEPTH = 100;
/** Rerank weights: IDF-weighted coverage of the question, the same in the title and heading path, the text rank. */
const WEIGHTS = { coverage: 0.55, heading: 0.2, text: 0.25 };

export { globToRegex } from './retrieval-filters';

type CandidateRow = Omit<RetrievedChunk, 'text_score' | 'coverage' | 'score' | 'grounded'> & {
  rank: number;
  matched: number;
  in_heading: number;
  found: number[];
};

/**
 * Hybrid-ready retrieval over Postgres full text: each indexed language is matched with its own
 * stemmer (one GIN index), every chat filter is applied in SQL with the tenant. Terms are weighted
 * by IDF over the tenant's chunks: the distinctive ones find the candidates, and the rerank (IDF-
 * weighted coverage of the question, the same in title and headings, text rank) keeps at most
 * three chunks per document. A question word with synonyms (the tenant's synonym sets) counts as
 * found wherever the word or one of its synonyms is. Which question words each chunk contains also
 * decides whether it can ground an answer (grounding.ts).
 */
@Injectable()
export class RetrievalService {
  private readonly termStats: TermStats;
  private readonly vectors: VectorSearch;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.termStats = new TermStats(db);
    this.vectors = new VectorSearch(db);
  }

  /** Full text, fused by reciprocal rank with vector similarity where pgvector and an embedding provider exist (vector-search.ts). */
  async retrieve(
    tenantId: string,
    question: string,
    filters: RetrievalFilters = {},
    options: RetrievalOptions = {},
  ): Promise<RetrievalResult> {
    const depth = Math.min(MAX_DEPTH, Math.max(PRIMARY + RUNNER_UP, options.depth ?? 0));
    const [lexical, vector] = await Promise.all([
      this.lexical(tenantId, question, filters, depth),
      this.vectors.search(tenantId, question, filters),
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
    const stats = await this.termStats.of(
      tenantId,
      terms.map((t) => termQuery(t, alternatives.get(t))),
    );
    const headings = terms.map((t) => termQuery(t, alternatives.get(t), 'AB'));
    // Candidates are found by the distinctive terms; common ones only score (and stay cheap to match).
    const present = stats.filter((s) => s.df > 0);
    if (present.length === 0) return empty;
    const finders = present.filter((s) => !s.common);
    const find = (finders.length ? finders : present)
      .sort((a, b) => a.df - b.df)
      .slice(0, finders.length ? MAX_FINDERS : 2);
    const totalWeight = stats.reduce((sum, s) => sum + s.idf, 0);
    const params: unknown[] = [
      tenantId,
      find.map((s) => s.term).join(' | '),
      stats.map((s) => s.term),
      headings,
      stats.map((s) => s.idf),
    ];
    const p = (v: unknown) => `$${params.push(v)}`;
    const where = [
      `c.tenant_id = $1`,
      `d.tenant_id = $1`,
      `d.deleted_at IS NULL`,
      `d.status = 'indexed'`,
      ...filterClauses(filters, p),
    ];
    // Only the languages the tenant's indexed documents use get a match branch (a chunk has its document's language): each
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
          ? `(SELECT CASE WHEN count(*) < ${CANDIDATES / 2} THEN ${PREFILTER} - count(*) ELSE 0 END FROM (${higher.map((h) => `SELECT 1 FROM ${h}`).join(' UNION ALL ')}) h)`
          : PREFILTER;
        return `t${i} AS MATERIALIZED (
         SELECT c.id, ts_rank_cd(c.tsv, ${finderOf(configs)}, 1) AS rank
           FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
          WHERE ${[...where, matching(configs, p(query)), ...higher.map((h) => `c.id NOT IN (SELECT id FROM ${h})`)].join(' AND ')}
          ORDER BY rank DESC, c.id
          LIMIT ${limit})`;
      });
    // Each query is parsed once per language (q). The prefiltered chunks' vectors are detoasted once
    // (tv) and tested against every term: the IDF weight of the terms a chunk contains anywhere, and
    // in its title or heading path (:AB).
    const rows = await this.withoutJit(async (run) => {
      const used = await run<Array<{ language: string }>>(
        `SELECT DISTINCT language::text AS language FROM kb_documents WHERE tenant_id = $1 AND status = 'indexed' AND deleted_at IS NULL`,
        [tenantId],
      );
      const configs = TEXT_SEARCH_CONFIGS.filter((cfg) => used.some((u) => u.language === cfg));
      if (configs.length === 0) return [];
      return run<CandidateRow[]>(
        `WITH ${tierCtes(configs).join(',\n')},
       q AS (
         SELECT l.cfg::regconfig AS cfg, to_tsquery(l.cfg::regconfig, $2) AS finder,
                array_agg(to_tsquery(l.cfg::regconfig, u.t) ORDER BY u.i) AS terms, array_agg(to_tsquery(l.cfg::regconfig, u.h) ORDER BY u.i) AS heads
           FROM unnest('{${configs.join(',')}}'::text[]) AS l(cfg), unnest($3::text[], $4::text[]) WITH ORDINALITY AS u(t, h, i)
          GROUP BY l.cfg)
       SELECT * FROM (
         SELECT x.chunk_id, x.document_id, x.project_key, x.source_path, x.source_type, x.slug, x.title, x.heading_path, x.text, x.chunk_hash,
                x.rank::float8 AS rank,
                (SELECT coalesce(sum(w.idf), 0) FROM unnest(q.terms, $5::float8[]) AS w(tq, idf) WHERE x.tv @@ w.tq)::float8 AS matched,
                (SELECT coalesce(sum(w.idf), 0) FROM unnest(q.heads, $5::float8[]) AS w(tq, idf) WHERE x.tv @@ w.tq)::float8 AS in_heading,
                array(SELECT w.i::int FROM unnest(q.terms) WITH ORDINALITY AS w(tq, i) WHERE x.tv @@ w.tq ORDER BY w.i) AS found
           FROM (
             SELECT c.id::int AS chunk_id, d.id::int AS document_id, d.project_key, d.source_path, d.source_type, d.slug, d.title, c.heading_path, c.text, c.chunk_hash,
                    c.language, c.tsv || ''::tsvector AS tv, t.rank
               FROM (${tierQueries.map((_, i) => `SELECT id, rank FROM t${i}`).join(' UNION ALL ')}) t
               JOIN kb_chunks c ON c.id = t.id JOIN kb_documents d ON d.id = c.document_id OFFSET 0) x
           JOIN q ON q.cfg = x.language) y
        ORDER BY y.matched + 0.5 * y.in_heading DESC, y.rank DESC, y.chunk_id
        LIMIT ${CANDIDATES}`,
        params,
      );
    });
    const maxRank = Math.max(0, ...rows.map((r) => r.rank));
    const found = new Map(rows.map((r) => [r.chunk_id, r.found.map((i) => i - 1)]));
    const scored = rows.map(({ rank, matched, in_heading, found: _found, ...r }) => {
      const coverage = matched / totalWeight;
      const headingCoverage = in_heading / totalWeight;
      const textScore = maxRank > 0 ? rank / maxRank : 0;
      const score =
        WEIGHTS.coverage * coverage + WEIGHTS.heading * headingCoverage + WEIGHTS.text * textScore;
      return {
        ...r,
        text_score: round(textScore),
        coverage: round(coverage),
        score: round(score),
        grounded: false,
      };
    });
    scored.sort((a, b) => b.score - a.score || a.chunk_id - b.chunk_id);
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
      stats,
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
