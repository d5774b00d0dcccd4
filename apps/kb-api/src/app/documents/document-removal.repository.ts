import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';

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
  ): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(
      this.db,
      `UPDATE kb_documents SET deleted_at = now(), updated_at = now()
        WHERE tenant_id = $1 AND project_key = $2 AND source_path = $3 AND deleted_at IS NULL
        RETURNING id`,
      [tenantId, projectKey, sourcePath],
    );
    return row?.id ?? null;
  }

  /** Removes the row (live or soft-deleted); chunks, links and feedback go with it. Returns where its file is stored. */
  async hardDelete(
    tenantId: string,
    projectKey: string,
    sourcePath: string,
  ): Promise<{ id: string; storage_key: string } | null> {
    const [row] = await queryRows<{ id: string; storage_key: string }>(
      this.db,
      'DELETE FROM kb_documents WHERE tenant_id = $1 AND project_key = $2 AND source_path = $3 RETURNING id, storage_key',
      [tenantId, projectKey, sourcePath],
    );
    return row ?? null;
  }
}
