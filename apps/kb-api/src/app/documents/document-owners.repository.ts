import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';

export interface DocumentOwner {
  project_key: string;
  source_path: string;
  created_by: string | null;
  deleted: boolean;
}

/** Who ingested the documents at these paths of the tenant (paths without a document are left out). */
@Injectable()
export class DocumentOwnersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async owners(tenantId: string, targets: ReadonlyArray<{ projectKey: string; sourcePath: string }>): Promise<DocumentOwner[]> {
    if (targets.length === 0) return [];
    return queryRows<DocumentOwner>(
      this.db,
      `SELECT d.project_key, d.source_path, d.created_by::text AS created_by, d.deleted_at IS NOT NULL AS deleted
         FROM kb_documents d
         JOIN unnest($2::text[], $3::text[]) AS t(project_key, source_path) ON t.project_key = d.project_key AND t.source_path = d.source_path
        WHERE d.tenant_id = $1`,
      [tenantId, targets.map((t) => t.projectKey), targets.map((t) => t.sourcePath)],
    );
  }
}
