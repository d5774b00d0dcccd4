import { Injectable, Logger } from '@nestjs/common';
import { KbValidationError } from '../errors/kb-errors';
import { DocumentStorage } from '../ingest/document-storage';
import { normalizeSourcePath } from '../ingest/source-path';
import { KbConfig } from '../../config/kb-config';
import { DocumentOwnersRepository } from './document-owners.repository';
import { DocumentActor, refuseForeign } from './document-ownership';
import { DocumentRemovalRepository } from './document-removal.repository';
import { DeleteDocumentsDto } from './dto/delete-documents.dto';

export type RemovalEntry =
  | {
      project_key: string;
      source_path: string;
      document_id: number;
      mode: 'soft' | 'hard';
      file_deleted: boolean;
      status: 'deleted';
    }
  | { project_key: string; source_path: string; document_id: null; status: 'not_found' };

export interface RemovalResult {
  deleted: number;
  missing: number;
  documents: RemovalEntry[];
}

/**
 * DELETE /api/kb/documents: paths are normalised as at ingest and the whole batch is validated
 * before anything changes. By default a document is only marked deleted; `force` removes the row
 * (chunks and links cascade) and then its stored file.
 */
@Injectable()
export class DocumentRemovalService {
  private readonly logger = new Logger('DocumentRemoval');
  private readonly defaultProject: string;

  constructor(
    private readonly removal: DocumentRemovalRepository,
    private readonly owners: DocumentOwnersRepository,
    private readonly storage: DocumentStorage,
    config: KbConfig,
  ) {
    this.defaultProject = config.get('KB_INGEST_DEFAULT_PROJECT');
  }

  /** Someone else's document needs kb.delete.any; without it the whole batch is refused (403) before anything changes. */
  async remove(tenantId: string, request: DeleteDocumentsDto, actor: DocumentActor): Promise<RemovalResult> {
    const errors: Record<string, string[]> = {};
    const targets = request.documents.map((d, i) => {
      const sourcePath = normalizeSourcePath(d.source_path);
      if (!sourcePath)
        (errors[`documents.${i}.source_path`] ??= []).push(
          'The source path must be a relative path of well-formed text without empty, "." or ".." segments.',
        );
      const projectKey = (d.project_key ?? this.defaultProject).trim();
      if (!projectKey)
        (errors[`documents.${i}.project_key`] ??= []).push('The project key must not be empty.');
      return { projectKey, sourcePath: sourcePath ?? '' };
    });
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    // A soft delete touches live documents only; force also removes ones deleted earlier.
    const existing = await this.owners.owners(tenantId, targets);
    refuseForeign(request.force ? existing : existing.filter((o) => !o.deleted), actor, 'delete');

    const documents: RemovalEntry[] = [];
    for (const { projectKey, sourcePath } of targets) {
      documents.push(
        request.force
          ? await this.hardDelete(tenantId, projectKey, sourcePath, actor)
          : await this.softDelete(tenantId, projectKey, sourcePath, actor),
      );
    }
    const deleted = documents.filter((d) => d.status === 'deleted').length;
    return { deleted, missing: documents.length - deleted, documents };
  }

  private async softDelete(
    tenantId: string,
    projectKey: string,
    sourcePath: string,
    actor: DocumentActor,
  ): Promise<RemovalEntry> {
    const id = await this.removal.softDelete(tenantId, projectKey, sourcePath, actor);
    if (id === null)
      return {
        project_key: projectKey,
        source_path: sourcePath,
        document_id: null,
        status: 'not_found',
      };
    return {
      project_key: projectKey,
      source_path: sourcePath,
      document_id: Number(id),
      mode: 'soft',
      file_deleted: false,
      status: 'deleted',
    };
  }

  private async hardDelete(
    tenantId: string,
    projectKey: string,
    sourcePath: string,
    actor: DocumentActor,
  ): Promise<RemovalEntry> {
    const row = await this.removal.hardDelete(tenantId, projectKey, sourcePath, actor);
    if (row === null)
      return {
        project_key: projectKey,
        source_path: sourcePath,
        document_id: null,
        status: 'not_found',
      };
    let fileDeleted = true;
    try {
      await this.storage.remove(row.storage_key);
    } catch (e) {
      // The row is gone either way; a file left behind is reported, not an error for the caller.
      fileDeleted = false;
      this.logger.warn(`stored file of document ${row.id} not removed: ${(e as Error).message}`);
    }
    return {
      project_key: projectKey,
      source_path: sourcePath,
      document_id: Number(row.id),
      mode: 'hard',
      file_deleted: fileDeleted,
      status: 'deleted',
    };
  }
}
