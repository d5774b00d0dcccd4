import { Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { filterClauses } from './retrieval-filters';
import type { RetrievalFilters, VectorHit } from './retrieval-types';

/** A chunk waiting for its vector: what is embedded (title, heading path, text) and where it goes. */
export interface PendingChunk {
  id: string;
  document_id: string;
  text: string;
  heading_path: string | null;
  doc_title: string;
}

/** A question's vector and what the nearest-chunk search keeps. */
export interface NearestQuery {
  embedding: number[];
  model: string;
  minSimilarity: number;
  limit: number;
  filters: RetrievalFilters;
  excludeFlagged?: boolean;
}

/** How long a missing embeddings table is believed missing before it is looked up again. */
const ABSENT_RECHECK_MS = 60_000;

/** The chunk `c` belongs to a live, indexed document of the tenant ($1). */
const LIVE_DOCUMENT = `EXISTS (SELECT 1 FROM kb_documents d WHERE d.id = c.document_id AND d.tenant_id = $1 AND d.deleted_at IS NULL AND d.status = 'indexed')`;

/** pgvector's text form of a vector. */
export const vectorLiteral = (v: number[]) => `[${v.join(',')}]`;

/**
 * kb_chunk_embeddings (created by its migration only where pgvector exists), read and written for
 * one tenant at a time: the nearest chunks to a question, the chunks still lacking a vector of a
 * model, and the vectors' upsert. Every statement names the tenant of the chunks it reads
 * (kb_chunks has no row-security policy: row-security/chunk-queries.spec.ts).
 */
@Injectable()
export class ChunkEmbeddingsRepository {
  private known: { exists: boolean; at: number } | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Optional() private readonly clock: Clock = new Clock(),
  ) {}

  /** Whether this database holds chunk embeddings; a missing table is looked up again after a minute (a later migration may add it). */
  async tableExists(): Promise<boolean> {
    if (this.known && (this.known.exists || this.clock.nowMs() - this.known.at < ABSENT_RECHECK_MS)) return this.known.exists;
    const [row] = await this.db.query(`SELECT to_regclass('kb_chunk_embeddings') IS NOT NULL AS exists`);
    this.known = { exists: row.exists === true, at: this.clock.nowMs() };
    return this.known.exists;
  }

  /**
   * The tenant's chunks nearest to the question by cosine distance, over the vectors of `q.model`,
   * with the chat filters, at least `q.minSimilarity` similar, best first.
   */
  nearest(tenantId: string, q: NearestQuery): Promise<VectorHit[]> {
    const dims = q.embedding.length;
    const params: unknown[] = [tenantId, vectorLiteral(q.embedding), q.model, q.minSimilarity];
    const p = (v: unknown) => `$${params.push(v)}`;
    const where = [
      'e.tenant_id = $1',
      'c.tenant_id = $1',
      'd.tenant_id = $1',
      'e.model = $3',
      `e.dims = ${dims}`,
      'd.deleted_at IS NULL',
      `d.status = 'indexed'`,
      ...filterClauses(q.filters, p, { excludeFlagged: q.excludeFlagged }),
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
          LIMIT ${Math.trunc(q.limit)}) nearest
        WHERE nearest.similarity >= $4
        ORDER BY nearest.similarity DESC, nearest.chunk_id`,
      params,
    );
  }

  /** One document's chunks lacking a vector of `model`, in order. */
  pendingOfDocument(tenantId: string, model: string, documentId: string | number): Promise<PendingChunk[]> {
    return this.db.query(
      `SELECT c.id, c.document_id, c.text, c.heading_path, c.doc_title
         FROM kb_chunks c
         LEFT JOIN kb_chunk_embeddings e ON e.chunk_id = c.id AND e.model = $2
        WHERE c.tenant_id = $1 AND c.document_id = $3 AND e.chunk_id IS NULL
        ORDER BY c.document_id, c.ord`,
      [tenantId, model, documentId],
    );
  }

  /** Up to `limit` chunks of the tenant's live, indexed documents lacking a vector of `model`, in document order. */
  pendingOfTenant(tenantId: string, model: string, limit: number): Promise<PendingChunk[]> {
    return this.db.query(
      `SELECT c.id, c.document_id, c.text, c.heading_path, c.doc_title
         FROM kb_chunks c
         LEFT JOIN kb_chunk_embeddings e ON e.chunk_id = c.id AND e.model = $2
        WHERE c.tenant_id = $1 AND ${LIVE_DOCUMENT} AND e.chunk_id IS NULL
        ORDER BY c.document_id, c.ord
        LIMIT ${Math.trunc(limit)}`,
      [tenantId, model],
    );
  }

  /** How many chunks of the tenant's live, indexed documents lack a vector of `model`. */
  async missing(tenantId: string, model: string): Promise<number> {
    const [row] = await this.db.query(
      `SELECT count(*)::int AS n FROM kb_chunks c LEFT JOIN kb_chunk_embeddings e ON e.chunk_id = c.id AND e.model = $2
        WHERE c.tenant_id = $1 AND ${LIVE_DOCUMENT} AND e.chunk_id IS NULL`,
      [tenantId, model],
    );
    return row.n;
  }

  /** Writes the chunks' vectors (replacing another model's); answers how many chunks still existed to take one. */
  async write(tenantId: string, model: string, chunkIds: string[], vectors: number[][]): Promise<number> {
    // Joined with kb_chunks again: a chunk replaced by a newer version meanwhile is skipped, not an error.
    const rows: Array<{ chunk_id: string }> = await this.db.query(
      `INSERT INTO kb_chunk_embeddings (chunk_id, tenant_id, document_id, model, dims, embedding)
       SELECT c.id, c.tenant_id, c.document_id, $2, u.dims, u.embedding::vector
         FROM unnest($3::bigint[], $4::text[], $5::int[]) AS u(chunk_id, embedding, dims)
         JOIN kb_chunks c ON c.id = u.chunk_id AND c.tenant_id = $1
       ON CONFLICT (chunk_id) DO UPDATE SET model = EXCLUDED.model, dims = EXCLUDED.dims, embedding = EXCLUDED.embedding, created_at = now()
       RETURNING chunk_id`,
      [tenantId, model, chunkIds, vectors.map(vectorLiteral), vectors.map((v) => v.length)],
    );
    return rows.length;
  }
}
