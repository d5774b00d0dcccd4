import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TEXT_SEARCH_CONFIGS } from '../ingest/language';
import { adjacentTermPairs, groundingOf } from './grounding';
import { contentTerms } from './query-terms';
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
}

const CANDIDATES = 100;
/**
 * Chunks taken by full-text rank before the per-term scoring, which reads every term against every
 * chunk: it bounds a question's cost on a large knowledge base (the rerank then picks CANDIDATES).
 */
const PREFILTER = 400;
const PRIMARY = 8;
const PER_DOCUMENT = 3;
const RUNNER_UP = 15;
/** Rerank weights: IDF-weighted coverage of the question, the same in the title and heading path, the text rank. */
const WEIGHTS = { coverage: 0.55, heading: 0.2, text: 0.25 };

export { globToRegex } from './retrieval-filters';

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
  async retrieve(tenantId: string, question: string, filters: RetrievalFilters = {}): Promise<RetrievalResult> {
    const [lexical, vector] = await Promise.all([this.lexical(tenantId, question, filters), this.vectors.search(tenantId, question, filters)]);
    return fuseRetrieval(lexical, vector, { perDocument: PER_DOCUMENT, primary: PRIMARY, runnerUp: RUNNER_UP });
  }

  private async lexical(tenantId: string, question: string, filters: RetrievalFilters): Promise<RetrievalResult> {
    const terms = contentTerms(question).slice(0, 32);
    const empty = { terms, primary: [], runner_up: [], candidates: 0 };
    if (terms.length === 0) return empty;
    // A word with synonyms is searched, counted and scored as the OR of the word and its synonyms.
    const alternatives = alternativesOf(terms, await synonymCache.setsOf(this.db, tenantId), filters.project_keys);
    const stats = await this.termStats.of(tenantId, terms.map((t) => termQuery(t, alternatives.get(t))));
    const headings = terms.map((t) => termQuery(t, alternatives.get(t), 'AB'));
    // Candidates are found by the distinctive terms; common ones only score (and stay cheap to match).
    const present = stats.filter((s) => s.df > 0);
    if (present.length === 0) return empty;
    const finders = present.filter((s) => !s.common);
    const find = finders.length ? finders : [...present].sort((a, b) => a.df - b.df).slice(0, 2);
    const totalWeight = stats.reduce((sum, s) => sum + s.idf, 0);
    const params: unknown[] = [tenantId, find.map((s) => s.term).join(' | '), stats.map((s) => s.term), headings, stats.map((s) => s.idf)];
    const p = (v: unknown) => `$${params.push(v)}`;
    const where = [`c.tenant_id = $1`, `d.tenant_id = $1`, `d.deleted_at IS NULL`, `d.status = 'indexed'`];
    const match = TEXT_SEARCH_CONFIGS.map((cfg) => `(c.language = '${cfg}'::regconfig AND c.tsv @@ to_tsquery('${cfg}', $2))`).join(' OR ');
    where.push(`(${match})`);
    where.push(...filterClauses(filters, p));
    // Each query is parsed once per language (q). The matching chunks' vectors are detoasted once
    // (tv) and tested against every term: the IDF weight of the terms a chunk contains anywhere, and
    // in its title or heading path (:AB).
    const rows: Array<Omit<RetrievedChunk, 'text_score' | 'coverage' | 'score' | 'grounded'> & { rank: number; matched: number; in_heading: number; found: number[] }> = await this.db.query(
      `WITH q AS (
         SELECT l.cfg::regconfig AS cfg, to_tsquery(l.cfg::regconfig, $2) AS finder,
                array_agg(to_tsquery(l.cfg::regconfig, u.t) ORDER BY u.i) AS terms, array_agg(to_tsquery(l.cfg::regconfig, u.h) ORDER BY u.i) AS heads
           FROM unnest('{${TEXT_SEARCH_CONFIGS.join(',')}}'::text[]) AS l(cfg), unnest($3::text[], $4::text[]) WITH ORDINALITY AS u(t, h, i)
          GROUP BY l.cfg)
       SELECT * FROM (
         SELECT x.chunk_id, x.document_id, x.project_key, x.source_path, x.source_type, x.slug, x.title, x.heading_path, x.text, x.chunk_hash,
                ts_rank_cd(x.tv, q.finder, 1) AS rank,
                (SELECT coalesce(sum(w.idf), 0) FROM unnest(q.terms, $5::float8[]) AS w(tq, idf) WHERE x.tv @@ w.tq)::float8 AS matched,
                (SELECT coalesce(sum(w.idf), 0) FROM unnest(q.heads, $5::float8[]) AS w(tq, idf) WHERE x.tv @@ w.tq)::float8 AS in_heading,
                array(SELECT w.i::int FROM unnest(q.terms) WITH ORDINALITY AS w(tq, i) WHERE x.tv @@ w.tq ORDER BY w.i) AS found
           FROM (
             SELECT c.id::int AS chunk_id, d.id::int AS document_id, d.project_key, d.source_path, d.source_type, d.slug, d.title, c.heading_path, c.text, c.chunk_hash,
                    c.language, c.tsv || ''::tsvector AS tv
               FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
              WHERE ${where.join(' AND ')}
              ORDER BY ts_rank_cd(c.tsv, to_tsquery(c.language, $2), 1) DESC, c.id
              LIMIT ${PREFILTER}) x
           JOIN q ON q.cfg = x.language) y
        ORDER BY y.matched + 0.5 * y.in_heading DESC, y.rank DESC, y.chunk_id
        LIMIT ${CANDIDATES}`,
      params,
    );
    const maxRank = Math.max(0, ...rows.map((r) => r.rank));
    const found = new Map(rows.map((r) => [r.chunk_id, r.found.map((i) => i - 1)]));
    const scored = rows.map(({ rank, matched, in_heading, found: _found, ...r }) => {
      const coverage = matched / totalWeight;
      const headingCoverage = in_heading / totalWeight;
      const textScore = maxRank > 0 ? rank / maxRank : 0;
      const score = WEIGHTS.coverage * coverage + WEIGHTS.heading * headingCoverage + WEIGHTS.text * textScore;
      return { ...r, text_score: round(textScore), coverage: round(coverage), score: round(score), grounded: false };
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
    const shown = kept.slice(0, PRIMARY + RUNNER_UP);
    const grounded = groundingOf(
      stats,
      adjacentTermPairs(question, terms),
      shown.map((c) => ({ found: found.get(c.chunk_id) ?? [] })),
      PRIMARY,
    );
    shown.forEach((c, i) => (c.grounded = grounded[i]));
    return { terms, primary: shown.slice(0, PRIMARY), runner_up: shown.slice(PRIMARY), candidates: rows.length };
  }
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
