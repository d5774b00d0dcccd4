import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import type { DocumentActor } from './document-ownership';

// The ownership rule again in the statement, so a document that changed hands meanwhile is not removed.
const OWNED = '($4::boolean OR created_by = $5::bigint)';

/** Deletes documents by (tenant, project, path); each call is one statement, so it is atomic on its own. */
@Injectable()
export class DocumentRemovalRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Marks a live document deleted. Its chunks stay (retrieval, search and preview skip deleted
   * documents) and a later ingest of the same path brings it back. Returns its id, or null when
   * there is no live document at that path.
   */
  async softDelete(
    tenantId: string,
    projectKey: string,
    sourcePath: string,
    actor: DocumentActor,
  ): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(
      this.db,
      `UPDATE kb_documents SET deleted_at = now(), updated_at = now()
        WHERE tenant_id = $1 AND project_key = $2 AND source_path = $3 AND deleted_at IS NULL AND ${OWNED}
        RETURNING id`,
      [tenantId, projectKey, sourcePath, actor.any, actor.userId],
    );
    return row?.id ?? null;
  }

  /** Removes the row (live or soft-deleted); chunks, links and feedback go with it. Returns where its file is stored. */
  async hardDelete(
    tenantId: string,
    projectKey: string,
    sourcePath: string,
    actor: DocumentActor,
  ): Promise<{ id: string; storage_key: string } | null> {
    const [row] = await queryRows<{ id: string; storage_key: string }>(
      this.db,
      `DELETE FROM kb_documents WHERE tenant_id = $1 AND project_key = $2 AND source_path = $3 AND ${OWNED} RETURNING id, storage_key`,
      [tenantId, projectKey, sourcePath, actor.any, actor.userId],
    );
    return row ?? null;
  }
}
