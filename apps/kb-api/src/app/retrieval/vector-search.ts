import { Logger } from '@nestjs/common';
import type { ChunkEmbeddingsRepository } from './chunk-embeddings.repository';
import type { RetrievalFilters, RetrievalResult, RetrievedChunk, VectorHit } from './retrieval-types';
import type { VectorConfig } from './vector-config';

export type { VectorHit } from './retrieval-types';

/** The constant of reciprocal-rank fusion: large enough that the top few ranks of one list do not drown the other. */
export const RRF_K = 60;
/** Nearest chunks read per question (the vector list fused with the lexical candidates). */
const VECTOR_CANDIDATES = 100;

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

/**
 * Nearest chunks to the question by cosine distance, over the vectors of the configured model, with
 * the chat filters and the tenant. Answers nothing (never an error) without a provider, without the
 * embeddings table, or when the provider fails: the lexical path then answers alone.
 */
export class VectorSearch {
  private readonly logger = new Logger('VectorSearch');

  constructor(
    private readonly embeddings: ChunkEmbeddingsRepository,
    private readonly config: VectorConfig,
  ) {}

  get enabled(): boolean {
    return this.config.provider !== null;
  }

  async search(tenantId: string, question: string, filters: RetrievalFilters = {}, options: { excludeFlagged?: boolean } = {}): Promise<VectorHit[]> {
    const provider = this.config.provider;
    if (!provider || question.trim() === '' || !(await this.embeddings.tableExists())) return [];
    let embedding: number[];
    try {
      [embedding] = await provider.embed([question]);
    } catch (e) {
      this.logger.warn(`question not embedded, lexical retrieval only: ${(e as Error).message}`);
      return [];
    }
    return this.embeddings.nearest(tenantId, {
      embedding,
      model: provider.model,
      minSimilarity: this.config.minSimilarity,
      limit: VECTOR_CANDIDATES,
      filters,
      excludeFlagged: options.excludeFlagged,
    });
  }
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
