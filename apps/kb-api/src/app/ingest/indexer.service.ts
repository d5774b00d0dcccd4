import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { IndirectInjectionScreen, IndirectVerdict } from '../guardrails/indirect-injection';
import { ChunkEmbedder } from '../retrieval/vector-embedder';
import { BINARY_CONVERTERS } from './binary-converters';
import { chunkMarkdown } from './chunker';
import { SourceType, toMarkdown } from './convert';
import { DocumentStorage } from './document-storage';
import { DocumentsRepository } from './documents.repository';
import type { IngestJobData } from './ingest.service';
import { detectLanguage } from './language';

export type IndexOutcome = 'indexed' | 'unchanged' | 'superseded' | 'gone';

/** The ChunkEmbedder the indexer uses, or null when no embedding provider is configured. */
export const INGEST_EMBEDDER = Symbol.for('kb-api.INGEST_EMBEDDER');

/**
 * The IngestDocumentJob: read the stored version, convert, chunk and swap it in atomically.
 * Idempotent: a job for a version already indexed, superseded or deleted changes nothing, so a
 * retry after a crash (or a duplicate delivery) is harmless.
 *
 * With an embedding provider configured (and pgvector on the server), the chunks are embedded once
 * the new version is committed. A failed embedding call does not fail the job: the document stays
 * indexed and searchable by words, and its missing vectors are written by the next job that reaches
 * it (a new version, a redelivery) or by ChunkEmbedder.backfill. Retrying the whole job
 * instead would redo the conversion and, with the provider down, end by marking a searchable
 * document failed.
 */
@Injectable()
export class IndexerService {
  private readonly logger = new Logger(IndexerService.name);

  constructor(
    private readonly documents: DocumentsRepository,
    private readonly storage: DocumentStorage,
    @Optional() @Inject(INGEST_EMBEDDER) private readonly embedder: ChunkEmbedder | null = null,
    @Optional() private readonly screen?: IndirectInjectionScreen,
  ) {}

  async index(job: IngestJobData): Promise<IndexOutcome> {
    const doc = await this.documents.find(job.tenantId, job.documentId);
    if (!doc || doc.deleted_at) return 'gone';
    if (doc.pending_hash !== job.hash) return 'superseded';
    if (doc.content_hash === job.hash && doc.status === 'indexed') {
      await this.embed(job);
      return 'unchanged';
    }
    const bytes = await this.storage.read(doc.storage_key);
    // The file is overwritten by a newer submission before its own job runs: that job indexes it.
    if (createHash('sha256').update(bytes).digest('hex') !== job.hash) return 'superseded';
    const converted = await toMarkdown(doc.source_type as SourceType, bytes, BINARY_CONVERTERS);
    const chunks = chunkMarkdown(converted.markdown);
    const title = doc.metadata['title_from_content'] === false ? doc.title : (converted.title ?? doc.title);
    const language = detectLanguage(converted.markdown);
    const flags = await this.screenChunks(job, chunks.map((c) => c.text));
    const swapped = await this.documents.replaceVersion(job.tenantId, job.documentId, { hash: job.hash, title, language, chunks, flags });
    if (!swapped) return 'superseded';
    await this.embed(job);
    return 'indexed';
  }

  /**
   * Indirect injection: every chunk goes through the input screen before it becomes searchable, with
   * the document as principal, so a chunk that carries instructions aimed at the model is flagged
   * from its first moment in the index. A screen whose match cannot be audited, or that could not
   * finish (a rule out of its time budget on a busy host), fails the job (it is retried): no chunk is
   * indexed unscreened, and none is flagged for a screen that never ran to the end.
   */
  private async screenChunks(job: IngestJobData, texts: string[]): Promise<IndirectVerdict[] | undefined> {
    if (!this.screen?.enabled) return undefined;
    const source = { tenantId: job.tenantId, principalId: `document:${job.documentId}` };
    const flags: IndirectVerdict[] = [];
    for (const text of texts) flags.push(await this.screen.screen(text, source));
    return flags;
  }

  /** The embed step: never throws, the lexical index is already committed (see the class comment). */
  private async embed(job: IngestJobData): Promise<void> {
    if (!this.embedder) return;
    try {
      await this.embedder.embedDocument(job.tenantId, job.documentId);
    } catch (e) {
      this.logger.warn(`document ${job.documentId} of tenant ${job.tenantId} indexed without vectors: ${(e as Error).message}`);
    }
  }

  markFailed(job: IngestJobData, error: string): Promise<void> {
    return this.documents.markFailed(job.tenantId, job.documentId, job.hash, error);
  }
}
