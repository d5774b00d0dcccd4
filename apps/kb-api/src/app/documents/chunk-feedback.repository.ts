import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import type { FeedbackSignal } from './dto/chunk-feedback.dto';

@Injectable()
export class ChunkFeedbackRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Records (or changes) a user's signal on a chunk of a live document of the tenant, in one
   * statement. Returns false when no such chunk is visible.
   */
  async upsert(
    tenantId: string,
    userId: string,
    chunkId: number,
    signal: FeedbackSignal,
  ): Promise<boolean> {
    const rows = await queryRows<{ chunk_id: string }>(
      this.db,
      `INSERT INTO kb_chunk_feedback (tenant_id, user_id, chunk_id, document_id, chunk_hash, signal)
       SELECT $1, $2, c.id, c.document_id, c.chunk_hash, $4
         FROM kb_chunks c JOIN kb_documents d ON d.id = c.document_id
        WHERE c.tenant_id = $1 AND d.tenant_id = $1 AND c.id = $3 AND d.deleted_at IS NULL
       ON CONFLICT (tenant_id, user_id, chunk_id) DO UPDATE SET
         signal = EXCLUDED.signal, document_id = EXCLUDED.document_id, chunk_hash = EXCLUDED.chunk_hash, updated_at = now()
       RETURNING chunk_id`,
      [tenantId, userId, chunkId, signal],
    );
    return rows.length > 0;
  }
}
