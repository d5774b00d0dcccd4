import type { EmbeddingsProvider } from '@platform/llm';
import type { ChunkEmbeddingsRepository, PendingChunk } from './chunk-embeddings.repository';

/** Chunks embedded per provider round trip in a backfill (the provider batches further within it). */
const BACKFILL_PAGE = 256;

/**
 * Writes the vectors of chunks that have none for the configured model. Only missing vectors are
 * computed, so running it twice, after a partial failure or after a model switch, does exactly the
 * remaining work. Does nothing without a provider or without the embeddings table.
 */
export class ChunkEmbedder {
  constructor(
    private readonly embeddings: ChunkEmbeddingsRepository,
    private readonly provider: EmbeddingsProvider | null,
  ) {}

  async active(): Promise<boolean> {
    return this.provider !== null && (await this.embeddings.tableExists());
  }

  /** Embeds one document's chunks lacking a vector; answers how many it wrote. */
  async embedDocument(tenantId: string, documentId: string | number): Promise<number> {
    if (!(await this.active())) return 0;
    return this.write(tenantId, await this.embeddings.pendingOfDocument(tenantId, this.provider!.model, documentId));
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
      const pending = await this.embeddings.pendingOfTenant(tenantId, this.provider!.model, page);
      if (pending.length === 0) break;
      written += await this.write(tenantId, pending);
      if (pending.length < page) break;
    }
    return written;
  }

  /** How many chunks a backfill of the tenant would embed (its preview). */
  async missing(tenantId: string): Promise<number> {
    if (!(await this.active())) return 0;
    return this.embeddings.missing(tenantId, this.provider!.model);
  }

  private async write(tenantId: string, chunks: PendingChunk[]): Promise<number> {
    if (chunks.length === 0) return 0;
    // The title and heading path are embedded with the text: a chunk's meaning often lives there.
    const vectors = await this.provider!.embed(chunks.map((c) => [c.doc_title, c.heading_path, c.text].filter(Boolean).join('\n\n')));
    return this.embeddings.write(tenantId, this.provider!.model, chunks.map((c) => c.id), vectors);
  }
}
