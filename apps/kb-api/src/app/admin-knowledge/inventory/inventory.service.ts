import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { JOBS, QUEUES } from '@platform/contracts';
import { Clock } from '@platform/runtime';
import { Queue } from 'bullmq';
import { createHash } from 'node:crypto';
import { pageWindow, toPage } from '../../admin/pagination';
import { KbError } from '../../errors/kb-errors';
import { DocumentStorage } from '../../ingest/document-storage';
import type { IngestJobData } from '../../ingest/ingest.service';
import { evidenceLabel } from '../settings/evidence-tiers';
import { KnowledgeSettingsService } from '../settings/settings.service';
import { ListAdminDocumentsQueryDto } from './inventory.dto';
import { InventoryRepository } from './inventory.repository';
import { buildTree } from './kb-tree';

/** Documents listed in a tree at most; the counts always cover every document. */
export const TREE_DOCUMENT_LIMIT = 2_000;
const CHUNK_LIMIT = 500;

/** The KB tree, its health findings and the admin's document list, detail and reindex. */
@Injectable()
export class InventoryService {
  constructor(
    private readonly inventory: InventoryRepository,
    private readonly settings: KnowledgeSettingsService,
    private readonly storage: DocumentStorage,
    @InjectQueue(QUEUES.kbIngest) private readonly queue: Queue<IngestJobData>,
    private readonly clock: Clock,
  ) {}

  async tree(tenantId: string, project?: string) {
    const [projects, counts, documents] = await Promise.all([
      this.inventory.projects(tenantId, project),
      this.inventory.folderCounts(tenantId, project),
      this.inventory.treeDocuments(tenantId, project, TREE_DOCUMENT_LIMIT + 1),
    ]);
    if (project !== undefined && projects.length === 0) throw new KbError(404, 'not_found', 'Project not found.');
    const truncated = documents.length > TREE_DOCUMENT_LIMIT;
    return { data: buildTree(projects, counts, documents.slice(0, TREE_DOCUMENT_LIMIT)), documents_truncated: truncated, document_limit: TREE_DOCUMENT_LIMIT };
  }

  async health(tenantId: string, staleDays?: number) {
    const analysis = await this.settings.of(tenantId, 'analysis');
    const days = staleDays ?? analysis.stale_after_days;
    const [without_chunks, failed_ingests, stuck_ingests, duplicate_content, broken_links, stale_documents] = await Promise.all([
      this.inventory.withoutChunks(tenantId),
      this.inventory.failed(tenantId),
      this.inventory.stuck(tenantId, analysis.stuck_ingest_minutes),
      this.inventory.duplicates(tenantId),
      this.inventory.brokenLinks(tenantId),
      this.inventory.stale(tenantId, days),
    ]);
    const findings = { without_chunks, failed_ingests, stuck_ingests, duplicate_content, broken_links, stale_documents };
    return {
      status: Object.values(findings).every((f) => f.count === 0) ? 'healthy' : 'attention',
      thresholds: { stale_after_days: days, stuck_ingest_minutes: analysis.stuck_ingest_minutes },
      findings,
    };
  }

  async documents(tenantId: string, q: ListAdminDocumentsQueryDto) {
    const w = pageWindow(q);
    const [{ rows, total }, tiers] = await Promise.all([
      this.inventory.documents(tenantId, { project: q.project, status: q.status, source_type: q.source_type, tag: q.tag, search: q.search }, w),
      this.settings.of(tenantId, 'evidence_tiers'),
    ]);
    return toPage(rows.map((r) => ({ ...r, evidence: evidenceLabel(r, tiers) })), total, w);
  }

  async document(tenantId: string, id: string) {
    const doc = await this.inventory.document(tenantId, id);
    if (!doc) throw new KbError(404, 'not_found', 'Document not found.');
    const [chunks, links, tiers, flagged] = await Promise.all([
      this.inventory.chunks(tenantId, id, CHUNK_LIMIT + 1),
      this.inventory.links(tenantId, doc),
      this.settings.of(tenantId, 'evidence_tiers'),
      this.inventory.flaggedChunkCount(tenantId, id),
    ]);
    return {
      data: {
        ...doc,
        evidence: evidenceLabel(doc, tiers),
        chunks: chunks.slice(0, CHUNK_LIMIT),
        chunks_truncated: chunks.length > CHUNK_LIMIT,
        flagged_chunk_count: flagged,
        links,
      },
    };
  }

  /**
   * Re-dispatches the ingest job for the stored original: the same IngestDocumentJob the ingest
   * route queues, so conversion, chunking and the atomic swap are the indexer's.
   */
  async reindex(tenantId: string, id: string) {
    const key = await this.inventory.storageKey(tenantId, id);
    if (key === null) throw new KbError(404, 'not_found', 'Document not found.');
    const stored = await this.readOriginal(key);
    const hash = createHash('sha256').update(stored).digest('hex');
    if (!(await this.inventory.markForReindex(tenantId, id, hash))) throw new KbError(404, 'not_found', 'Document not found.');
    // A distinct job id: the job that indexed this version may still be kept as completed.
    const job = await this.queue.add(JOBS.ingestDocument, { tenantId, documentId: id, hash }, { jobId: `doc-${id}-${hash.slice(0, 32)}-reindex-${this.clock.nowMs()}` });
    return { document_id: Number(id), status: 'queued', job_id: job.id, version_hash: hash };
  }

  private async readOriginal(key: string): Promise<Buffer> {
    try {
      return await this.storage.read(key);
    } catch {
      throw new KbError(409, 'original_missing', 'The stored original of this document is gone; ingest it again.');
    }
  }
}
