import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { IndexedChunkRow } from './lexical-index';

/** What the in-memory lexical index loads: the ids of a tenant's live chunks, and chunks' vectors by id. */
@Injectable()
export class LexicalIndexRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The tenant's chunks whose document is not soft-deleted (the chunks its term statistics count). */
  async liveChunkIds(tenantId: string): Promise<number[]> {
    const rows: Array<{ id: number }> = await this.db.query(
      `SELECT c.id::float8 AS id FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
        WHERE c.tenant_id = $1 AND d.tenant_id = $1 AND d.deleted_at IS NULL`,
      [tenantId],
    );
    return rows.map((r) => r.id);
  }

  /** Tenants with more than `above` live chunks, largest first (platform-wide: run outside a tenant's scope). */
  largestTenants(above: number): Promise<Array<{ tenant_id: string; chunks: number }>> {
    return this.db.query(
      `SELECT tenant_id, sum(chunks)::float8 AS chunks FROM kb_chunk_totals GROUP BY tenant_id HAVING sum(chunks) > $1 ORDER BY 2 DESC, 1`,
      [above],
    );
  }

  /** The tenant's chunk change counters (kb_chunk_generations; zero before its first write). */
  async generationOf(tenantId: string): Promise<{ chunks: number; epoch: number }> {
    const rows: Array<{ generation: string; epoch: string }> = await this.db.query(
      `SELECT generation::text, epoch::text FROM kb_chunk_generations WHERE tenant_id = $1`,
      [tenantId],
    );
    return { chunks: Number(rows[0]?.generation ?? 0), epoch: Number(rows[0]?.epoch ?? 0) };
  }

  /** The tenant's chunks among `ids`, with their language, length and vector in text form. */
  chunks(tenantId: string, ids: number[]): Promise<IndexedChunkRow[]> {
    return this.db.query(
      `SELECT c.id::float8 AS id, c.language::text AS language, c.tokens, c.tsv::text AS tsv
         FROM kb_chunks c WHERE c.tenant_id = $1 AND c.id = ANY($2::bigint[])`,
      [tenantId, ids],
    );
  }
}
