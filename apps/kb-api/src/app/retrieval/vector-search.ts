import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { filterClauses } from './retrieval-filters';
import type { RetrievalFilters, RetrievalResult, RetrievedChunk } from './retrieval.service';
import { readVectorConfig, VectorConfig } from './vector-config';

/** A chunk found by meaning: the chunk's fields plus its cosine similarity to the question. */
export type VectorHit = Omit<RetrievedChunk, 'text_score' | 'coverage' | 'score' | 'grounded'> & { similarity: number };

/** The constant of reciprocal-rank fusion: large enough that the top few ranks of one list do not drown the other. */
export const RRF_K = 60;
/** Nearest chunks read per question (the vector list fused with the lexical candidates). */
const VECTOR_CANDIDATES = 100;
/** How long a missing embeddings table is believed missing before it is looked up again. */
const ABSENT_RECHECK_MS = 60_000;

export interface FusionOptions {
  perDocument: number;
  k?: number;
}

/**
 * Reciprocal-rank fusion of the lexical ranking (best first, before any per-document cap) and the
 * vector ranking: each chunk scores Σ 1/(k + rank) over the lists it appears in, so agreement
 * between the two paths wins and neither path's raw scores need to be comparable. A chunk found
 * only by meaning counts as grounded (the vector list holds only hits above the similarity floor);
 * its `score` is its similarity, so `score` stays a 0..1 relevance however the order was made.
 * The per-document cap applies to the fused order.
 */
export function reciprocalRankFusion(lexical: RetrievedChunk[], vector: VectorHit[], o: FusionOptions): RetrievedChunk[] {
  const k = o.k ?? RRF_K;
  const fused = new Map<number, { chunk: RetrievedChunk; rrf: number }>();
  lexical.forEach((chunk, i) => {
    if (!fused.has(chunk.chunk_id)) fused.set(chunk.chunk_id, { chunk, rrf: 1 / (k + i + 1) });
  });
  const seen = new Set<number>();
  vector.forEach(({ similarity, ...hit }, i) => {
    if (seen.has(hit.chunk_id)) return;
    seen.add(hit.chunk_id);
    const entry = fused.get(hit.chunk_id);
    const rrf = 1 / (k + i + 1);
    if (entry) {
      entry.rrf += rrf;
      entry.chunk = { ...entry.chunk, score: Math.max(entry.chunk.score, round(similarity)), grounded: true };
    } else {
      fused.set(hit.chunk_id, { chunk: { ...hit, text_score: 0, coverage: 0, score: round(similarity), grounded: true }, rrf });
    }
  });
  const ordered = [...fused.values()].sort((a, b) => b.rrf - a.rrf || a.chunk.chunk_id - b.chunk.chunk_id);
  const perDoc = new Map<number, number>();
  const kept: RetrievedChunk[] = [];
  for (const { chunk } of ordered) {
    const n = perDoc.get(chunk.document_id) ?? 0;
    if (n >= o.perDocument) continue;
    perDoc.set(chunk.document_id, n + 1);
    kept.push(chunk);
  }
  return kept;
}

/**
 * RetrievalService's lexical answer (its primary and runner-up chunks, in order, grounding decided)
 * fused with the vector hits and cut again into primary and runner-up. `candidates` adds the vector
 * hits the lexical answer does not show to the lexical candidate count.
 */
export function fuseRetrieval(lexical: RetrievalResult, vector: VectorHit[], o: FusionOptions & { primary: number; runnerUp: number }): RetrievalResult {
  if (vector.length === 0) return lexical;
  const ranked = [...lexical.primary, ...lexical.runner_up];
  const shown = new Set(ranked.map((c) => c.chunk_id));
  const kept = reciprocalRankFusion(ranked, vector, o);
  return {
    ...lexical,
    primary: kept.slice(0, o.primary),
    runner_up: kept.slice(o.primary, o.primary + o.runnerUp),
    candidates: lexical.candidates + new Set(vector.filter((h) => !shown.has(h.chunk_id)).map((h) => h.chunk_id)).size,
  };
}

/** Whether this database holds chunk embeddings (the migration creates the table only where pgvector exists). */
export class EmbeddingsTable {
  private known: { exists: boolean; at: number } | null = null;

  constructor(private readonly db: DataSource) {}

  async exists(): Promise<boolean> {
    if (this.known && (this.known.exists || Date.now() - this.known.at < ABSENT_RECHECK_MS)) return this.known.exists;
    const [row] = await this.db.query(`SELECT to_regclass('kb_chunk_embeddings') IS NOT NULL AS exists`);
    this.known = { exists: row.exists === true, at: Date.now() };
    return this.known.exists;
  }
}

/** pgvector's text form of a vector. */
export const vectorLiteral = (v: number[]) => `[${v.join(',')}]`;

/**
 * Nearest chunks to the question by cosine distance, over the vectors of the configured model, with
 * the chat filters and the tenant. Answers nothing (never an error) without a provider, without the
 * embeddings table, or when the provider fails: the lexical path then answers alone.
 */
export class VectorSearch {
  private readonly logger = new Logger('VectorSearch');
  private readonly table: EmbeddingsTable;

  constructor(
    private readonly db: DataSource,
    private readonly config: VectorConfig = readVectorConfig(),
  ) {
    this.table = new EmbeddingsTable(db);
  }

  get enabled(): boolean {
    return this.config.provider !== null;
  }

  async search(tenantId: string, question: string, filters: RetrievalFilters = {}, options: { excludeFlagged?: boolean } = {}): Promise<VectorHit[]> {
    const provider = this.config.provider;
    if (!provider || question.trim() === '' || !(await this.table.exists())) return [];
    let embedding: number[];
    try {
      [embedding] = await provider.embed([question]);
    } catch (e) {
      this.logger.warn(`question not embedded, lexical retrieval only: ${(e as Error).message}`);
      return [];
    }
    const dims = embedding.length;
    const params: unknown[] = [tenantId, vectorLiteral(embedding), provider.model, this.config.minSimilarity];
    const p = (v: unknown) => `$${params.push(v)}`;
    const where = [
      'e.tenant_id = $1',
      'c.tenant_id = $1',
      'd.tenant_id = $1',
      'e.model = $3',
      `e.dims = ${dims}`,
      'd.deleted_at IS NULL',
      `d.status = 'indexed'`,
      ...filterClauses(filters, p, options),
    ];
    // The distance is taken on the vectors cast to the model's dimension (a whole number read from
    // the reply, safe to inline): the form an operator's per-dimension HNSW index is built on, so
    // the planner can use one (docs/kb-vector-retrieval.md). The floor keeps unrelated nearest
    // neighbours out of the fusion: without it, a question the corpus cannot answer would still
    // push its closest chunks between the lexical hits.
    const distance = `e.embedding::vector(${dims}) <=> $2::vector(${dims})`;
    return this.db.query(
      `SELECT * FROM (
         SELECT c.id::int AS chunk_id, d.id::int AS document_id, d.project_key, d.source_path, d.source_type, d.slug, d.title, c.heading_path, c.text, c.chunk_hash,
                c.injection_flagged AS flagged, (1 - (${distance}))::float8 AS similarity
           FROM kb_chunk_embeddings e
           JOIN kb_chunks c ON c.id = e.chunk_id
           JOIN kb_documents d ON d.id = e.document_id
          WHERE ${where.join(' AND ')}
          ORDER BY ${distance}, c.id
          LIMIT ${VECTOR_CANDIDATES}) nearest
        WHERE nearest.similarity >= $4
        ORDER BY nearest.similarity DESC, nearest.chunk_id`,
      params,
    );
  }
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
