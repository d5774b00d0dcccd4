import type { EmbeddingsProvider } from '@platform/llm';
import { DataSource } from 'typeorm';
import { EmbeddingsTable, vectorLiteral } from './vector-search';

interface PendingChunk {
  id: string;
  document_id: string;
  text: string;
  heading_path: string | null;
  doc_title: string;
}

/** Chunks embedded per provider round trip in a backfill (the provider batches further within it). */
const BACKFILL_PAGE = 256;
/** A tenant's chunks of live, indexed documents ($1 the tenant). */
const LIVE_CHUNKS = `c.tenant_id = $1 AND EXISTS (SELECT 1 FROM kb_documents d WHERE d.id = c.document_id AND d.tenant_id = $1 AND d.deleted_at IS NULL AND d.status = 'indexed')`;

/**
 * Writes the vectors of chunks that have none for the configured model. Only missing vectors are
 * computed, so running it twice, after a partial failure or after a model switch, does exactly the
 * remaining work. Does nothing without a provider or without the embeddings table.
 */
export class ChunkEmbedder {
  private readonly table: EmbeddingsTable;

  constructor(
    private readonly db: DataSource,
    private readonly provider: EmbeddingsProvider | null,
  ) {
    this.table = new EmbeddingsTable(db);
  }

  async active(): Promise<boolean> {
    return this.provider !== null && (await this.table.exists());
  }

  /** Embeds one document's chunks lacking a vector; answers how many it wrote. */
  async embedDocument(tenantId: string, documentId: string | number): Promise<number> {
    if (!(await this.active())) return 0;
    const pending = await this.pending('c.tenant_id = $1 AND c.document_id = $3', [tenantId, this.provider!.model, documentId]);
    return this.write(tenantId, pending);
  }

  /**
   * Embeds up to `limit` chunks of the tenant's indexed documents lacking a vector (after a provider
   * outage, or once a provider is configured on an existing corpus); answers how many it wrote.
   */
  async backfill(tenantId: string, limit = 1000): Promise<number> {
    if (!(await this.active())) return 0;
    let written = 0;
    while (written < limit) {
      const page = Math.min(BACKFILL_PAGE, limit - written);
      const pending = await this.pending(LIVE_CHUNKS, [tenantId, this.provider!.model], page);
      if (pending.length === 0) break;
      written += await this.write(tenantId, pending);
      if (pending.length < page) break;
    }
    return written;
  }

  /** How many chunks a backfill of the tenant would embed (its preview). */
  async missing(tenantId: string): Promise<number> {
    if (!(await this.active())) return 0;
    const [row] = await this.db.query(
      `SELECT count(*)::int AS n FROM kb_chunks c LEFT JOIN kb_chunk_embeddings e ON e.chunk_id = c.id AND e.model = $2 WHERE ${LIVE_CHUNKS} AND e.chunk_id IS NULL`,
      [tenantId, this.provider!.model],
    );
    return row.n;
  }

  private pending(where: string, params: unknown[], limit?: number): Promise<PendingChunk[]> {
    return this.db.query(
      `SELECT c.id, c.document_id, c.text, c.heading_path, c.doc_title
         FROM kb_chunks c
         LEFT JOIN kb_chunk_embeddings e ON e.chunk_id = c.id AND e.model = $2
        WHERE ${where} AND e.chunk_id IS NULL
        ORDER BY c.document_id, c.ord${limit ? ` LIMIT ${limit}` : ''}`,
      params,
    );
  }

  private async write(tenantId: string, chunks: PendingChunk[]): Promise<number> {
    if (chunks.length === 0) return 0;
    // The title and heading path are embedded with the text: a chunk's meaning often lives there.
    const vectors = await this.provider!.embed(chunks.map((c) => [c.doc_title, c.heading_path, c.text].filter(Boolean).join('\n\n')));
    // Joined with kb_chunks again: a chunk replaced by a newer version meanwhile is skipped, not an error.
    const rows: Array<{ chunk_id: string }> = await this.db.query(
      `INSERT INTO kb_chunk_embeddings (chunk_id, tenant_id, document_id, model, dims, embedding)
       SELECT c.id, c.tenant_id, c.document_id, $2, u.dims, u.embedding::vector
         FROM unnest($3::bigint[], $4::text[], $5::int[]) AS u(chunk_id, embedding, dims)
         JOIN kb_chunks c ON c.id = u.chunk_id AND c.tenant_id = $1
       ON CONFLICT (chunk_id) DO UPDATE SET model = EXCLUDED.model, dims = EXCLUDED.dims, embedding = EXCLUDED.embedding, created_at = now()
       RETURNING chunk_id`,
      [tenantId, this.provider!.model, chunks.map((c) => c.id), vectors.map(vectorLiteral), vectors.map((v) => v.length)],
    );
    return rows.length;
  }
}
