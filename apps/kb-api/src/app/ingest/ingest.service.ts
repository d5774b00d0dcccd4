import { Injectable, Logger } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { createHash } from 'node:crypto';
import { JOBS, QUEUES } from '@platform/contracts';
import { Queue } from 'bullmq';
import { DocumentOwnersRepository } from '../documents/document-owners.repository';
import { DocumentActor, refuseForeign, SYSTEM_ACTOR } from '../documents/document-ownership';
import { KbValidationError } from '../errors/kb-errors';
import { KbConfig } from '../../config/kb-config';
import { isBinary, sourceTypeOf } from './convert';
import { DocumentStorage } from './document-storage';
import { S3RequestError } from './s3-document-storage';
import { DocumentsRepository } from './documents.repository';
import { IngestDocumentDto } from './dto/ingest.dto';
import { normalizeSourcePath, slugOf } from './source-path';

export interface IngestJobData {
  tenantId: string;
  documentId: string;
  /** sha256 of the stored bytes: the version this job indexes. */
  hash: string;
}

export interface IngestEntry {
  project_key: string;
  source_path: string;
  status: 'queued' | 'failed';
  document_id?: number;
  error?: string;
}

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/**
 * POST /api/kb/ingest: the whole batch is validated before anything is written; then each document
 * is stored and one IngestDocumentJob queued for it. A failed write fails only that document.
 */
@Injectable()
export class IngestService {
  private readonly logger = new Logger(IngestService.name);
  private readonly defaultProject: string;

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly owners: DocumentOwnersRepository,
    private readonly storage: DocumentStorage,
    @InjectQueue(QUEUES.kbIngest) private readonly queue: Queue<IngestJobData>,
    config: KbConfig,
  ) {
    this.defaultProject = config.get('KB_INGEST_DEFAULT_PROJECT');
  }

  /**
   * `actor` limits overwriting to the caller's own documents unless they hold kb.edit.any; a path
   * without a live document (new, or deleted earlier) is free and becomes the caller's.
   */
  async ingest(tenantId: string, items: IngestDocumentDto[], actor: DocumentActor = SYSTEM_ACTOR): Promise<{ queued: number; failed: number; documents: IngestEntry[] }> {
    const errors: Record<string, string[]> = {};
    const prepared = items.map((item, i) => {
      const at = (field: string, message: string) => ((errors[`documents.${i}.${field}`] ??= []).push(message), null);
      const sourcePath = normalizeSourcePath(item.source_path) ?? at('source_path', 'The source path must be a relative path of well-formed text without empty, "." or ".." segments.');
      const mimeType = item.mime_type ?? 'text/markdown';
      const type = sourceTypeOf(mimeType) ?? at('mime_type', 'The mime type must be text/markdown, text/x-markdown, text/plain, text/html, application/pdf or a DOCX document.');
      let bytes: Buffer | null = null;
      if (type && isBinary(type)) {
        if (!BASE64.test(item.content)) at('content', 'Binary content must be base64-encoded.');
        else bytes = Buffer.from(item.content, 'base64');
        if (bytes?.length === 0) at('content', 'Binary content must not be empty.');
      } else {
        bytes = Buffer.from(item.content, 'utf8');
      }
      const projectKey = (item.project_key ?? this.defaultProject).trim();
      if (!projectKey) at('project_key', 'The project key must not be empty.');
      // A project's originals live in a folder named by its key: "." and ".." would name another one.
      else if (projectKey === '.' || projectKey === '..') at('project_key', 'The project key must not be "." or "..".');
      return { item, sourcePath, mimeType, type, bytes, projectKey };
    });
    const seen = new Set<string>();
    prepared.forEach((p, i) => {
      const key = `${p.projectKey}\0${p.sourcePath}`;
      if (p.sourcePath && seen.has(key)) (errors[`documents.${i}.source_path`] ??= []).push('The same document appears twice in the batch.');
      seen.add(key);
    });
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    const existing = await this.owners.owners(tenantId, prepared.map((p) => ({ projectKey: p.projectKey, sourcePath: p.sourcePath! })));
    refuseForeign(existing.filter((o) => !o.deleted), actor, 'overwrite');

    const entries: IngestEntry[] = [];
    for (const p of prepared) {
      const entry: IngestEntry = { project_key: p.projectKey, source_path: p.sourcePath!, status: 'queued' };
      try {
        const hash = createHash('sha256').update(p.bytes!).digest('hex');
        const storageKey = this.storage.keyOf(tenantId, p.projectKey, p.sourcePath!);
        // The file is written inside the row's decision (see accept): a concurrent submission of the
        // same path by someone else cannot replace the original the row's owner stored.
        const documentId = await this.documents.accept({
          tenantId,
          projectKey: p.projectKey,
          sourcePath: p.sourcePath!,
          title: p.item.title?.trim() || p.sourcePath!.split('/').pop()!,
          slug: slugOf(p.sourcePath!),
          mimeType: p.mimeType,
          sourceType: p.type!,
          storageKey,
          hash,
          metadata: p.item.metadata ?? {},
          actor,
        }, () => this.storage.write(storageKey, p.bytes!));
        // One job per version: submitting the same content twice queues it once.
        await this.queue.add(JOBS.ingestDocument, { tenantId, documentId, hash }, { jobId: `doc-${documentId}-${hash.slice(0, 32)}` });
        entry.document_id = Number(documentId);
      } catch (e) {
        entry.status = 'failed';
        entry.error = `could not store the document: ${this.whyNotStored(e, tenantId, p.projectKey, p.sourcePath!)}`;
      }
      entries.push(entry);
    }
    const failed = entries.filter((e) => e.status === 'failed').length;
    return { queued: entries.length - failed, failed, documents: entries };
  }

  /**
   * Why a document was not stored, in words for the caller. The object store's errors name only the
   * method, status and code, so they are passed on; a file system's name this machine's folders, so
   * the common ones are said in the caller's terms and the rest only logged.
   */
  private whyNotStored(e: unknown, tenantId: string, projectKey: string, sourcePath: string): string {
    if (e instanceof S3RequestError) return e.message;
    this.logger.warn(`document ${projectKey}/${sourcePath} of tenant ${tenantId} was not stored: ${(e as Error).message}`);
    const code = (e as { code?: unknown } | null)?.code;
    if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') {
      return 'its source path collides with another document\'s: one path cannot name both a document and a folder of documents.';
    }
    if (code === 'ENAMETOOLONG') return 'a segment of its source path is too long for the document storage.';
    return 'the document storage failed. Try again later.';
  }
}
