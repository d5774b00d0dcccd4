import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { BINARY_CONVERTERS } from './binary-converters';
import { chunkMarkdown } from './chunker';
import { SourceType, toMarkdown } from './convert';
import { DocumentStorage } from './document-storage';
import { DocumentsRepository } from './documents.repository';
import type { IngestJobData } from './ingest.service';
import { detectLanguage } from './language';

export type IndexOutcome = 'indexed' | 'unchanged' | 'superseded' | 'gone';

/**
 * The IngestDocumentJob: read the stored version, convert, chunk and swap it in atomically.
 * Idempotent: a job for a version already indexed, superseded or deleted changes nothing, so a
 * retry after a crash (or a duplicate delivery) is harmless.
 */
@Injectable()
export class IndexerService {
  constructor(
    private readonly documents: DocumentsRepository,
    private readonly storage: DocumentStorage,
  ) {}

  async index(job: IngestJobData): Promise<IndexOutcome> {
    const doc = await this.documents.find(job.tenantId, job.documentId);
    if (!doc || doc.deleted_at) return 'gone';
    if (doc.pending_hash !== job.hash) return 'superseded';
    if (doc.content_hash === job.hash && doc.status === 'indexed') return 'unchanged';
    const bytes = await this.storage.read(doc.storage_key);
    // The file is overwritten by a newer submission before its own job runs: that job indexes it.
    if (createHash('sha256').update(bytes).digest('hex') !== job.hash) return 'superseded';
    const converted = await toMarkdown(doc.source_type as SourceType, bytes, BINARY_CONVERTERS);
    const chunks = chunkMarkdown(converted.markdown);
    const title = doc.metadata['title_from_content'] === false ? doc.title : (converted.title ?? doc.title);
    const language = detectLanguage(converted.markdown);
    const swapped = await this.documents.replaceVersion(job.tenantId, job.documentId, { hash: job.hash, title, language, chunks });
    return swapped ? 'indexed' : 'superseded';
  }

  markFailed(job: IngestJobData, error: string): Promise<void> {
    return this.documents.markFailed(job.tenantId, job.documentId, job.hash, error);
  }
}
