import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TEXT_SEARCH_CONFIGS } from '../ingest/language';
import { contentTerms, orTsQuery, stemOf } from './query-terms';

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
  /** Share of the question's content words found in the chunk, its heading or title. */
  coverage: number;
  score: number;
  grounded: boolean;
}

export interface RetrievalResult {
  terms: string[];
  primary: RetrievedChunk[];
  runner_up: RetrievedChunk[];
  candidates: number;
}

const CANDIDATES = 60;
const PRIMARY = 8;
const PER_DOCUMENT = 3;
const RUNNER_UP = 15;
/** A chunk counts as grounding for the answer when it covers at least this share of the question. */
export const MIN_COVERAGE = 0.5;

/** `docs/**\/*.md` → an anchored regular expression on source_path. */
export function globToRegex(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return `^${re}$`;
}

/**
 * Hybrid-ready retrieval over Postgres full text: each indexed language is matched with its own
 * stemmer (one GIN index), every chat filter is applied in SQL with the tenant, then a lexical
 * rerank (text rank, coverage of the question's words, heading match) keeps at most three chunks
 * per document.
 */
@Injectable()
export class RetrievalService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async retrieve(tenantId: string, question: string, filters: RetrievalFilters = {}): Promise<RetrievalResult> {
    const terms = contentTerms(question).slice(0, 32);
    if (terms.length === 0) return { terms, primary: [], runner_up: [], candidates: 0 };
    const params: unknown[] = [tenantId, orTsQuery(terms)];
    const p = (v: unknown) => `$${params.push(v)}`;
    const where = [`c.tenant_id = $1`, `d.tenant_id = $1`, `d.deleted_at IS NULL`, `d.status = 'indexed'`];
    const match = TEXT_SEARCH_CONFIGS.map((cfg) => `(c.language = '${cfg}'::regconfig AND c.tsv @@ to_tsquery('${cfg}', $2))`).join(' OR ');
    where.push(`(${match})`);
    if (filters.project_keys?.length) where.push(`d.project_key = ANY(${p(filters.project_keys)}::text[])`);
    if (filters.source_types?.length) where.push(`d.source_type = ANY(${p(filters.source_types)}::text[])`);
    if (filters.doc_ids?.length) where.push(`d.id = ANY(${p(filters.doc_ids)}::bigint[])`);
    if (filters.tag_slugs?.length) where.push(`coalesce(d.metadata->'tags', '[]'::jsonb) ?| ${p(filters.tag_slugs)}::text[]`);
    if (filters.canonical_types?.length) where.push(`d.metadata->>'canonical_type' = ANY(${p(filters.canonical_types)}::text[])`);
    if (filters.connector_types?.length) where.push(`d.metadata->>'connector_type' = ANY(${p(filters.connector_types)}::text[])`);
    if (filters.collection_id !== undefined) where.push(`coalesce(d.metadata->'collection_ids', '[]'::jsonb) @> ${p(JSON.stringify([filters.collection_id]))}::jsonb`);
    if (filters.folder_globs?.length) where.push(`d.source_path ~ ANY(${p(filters.folder_globs.map(globToRegex))}::text[])`);
    if (filters.date_from) where.push(`d.updated_at >= ${p(filters.date_from)}::date`);
    if (filters.date_to) where.push(`d.updated_at < (${p(filters.date_to)}::date + 1)`);
    const rows: Array<Omit<RetrievedChunk, 'text_score' | 'coverage' | 'score' | 'grounded'> & { rank: number }> = await this.db.query(
      `SELECT c.id::int AS chunk_id, d.id::int AS document_id, d.project_key, d.source_path, d.source_type, d.slug, d.title, c.heading_path, c.text, c.chunk_hash,
              ts_rank_cd(c.tsv, to_tsquery(c.language, $2), 1) AS rank
         FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
        WHERE ${where.join(' AND ')}
        ORDER BY rank DESC, c.id
        LIMIT ${CANDIDATES}`,
      params,
    );
    const maxRank = Math.max(0, ...rows.map((r) => r.rank));
    const stems = terms.map(stemOf);
    const scored = rows.map(({ rank, ...r }) => {
      const body = `${r.title} ${r.heading_path ?? ''} ${r.text}`.toLowerCase();
      const heading = `${r.title} ${r.heading_path ?? ''}`.toLowerCase();
      const coverage = stems.filter((s) => body.includes(s)).length / stems.length;
      const headingCoverage = stems.filter((s) => heading.includes(s)).length / stems.length;
      const textScore = maxRank > 0 ? rank / maxRank : 0;
      const score = 0.45 * textScore + 0.4 * coverage + 0.15 * headingCoverage;
      return { ...r, text_score: round(textScore), coverage: round(coverage), score: round(score), grounded: coverage >= MIN_COVERAGE };
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
    return { terms, primary: kept.slice(0, PRIMARY), runner_up: kept.slice(PRIMARY, PRIMARY + RUNNER_UP), candidates: rows.length };
  }
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
