import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { KbPrincipal } from '../../auth/kb-principal';
import { KbError, KbValidationError } from '../../errors/kb-errors';
import { isBinary, sourceTypeOf } from '../../ingest/convert';
import { IngestDocumentDto } from '../../ingest/dto/ingest.dto';
import { IngestService } from '../../ingest/ingest.service';
import { AddressPolicy, Clock } from '@platform/runtime';
import { directoryUnder, fetchUrls, readDirectory, SourceItem } from './connector-sources';
import { CONNECTOR_LIMITS, ConnectorSettings } from './connector-settings';
import { ConnectorRow, ConnectorRunRow, ConnectorsRepository, RunCounts } from './connectors.repository';

/** Documents handed to the ingest pipeline per call (its batch limit is 100). */
const BATCH = 50;
const MAX_ERRORS = 100;
/** A run still "running" after this long was cut short (a restart) and no longer blocks a sync. */
const STALE_RUN_MS = 30 * 60_000;

type Found = Extract<SourceItem, { bytes: Buffer }>;

/**
 * POST /api/admin/connectors/{id}/sync: reads the connector's source and feeds what changed into
 * the ingest pipeline (stored, then indexed by the worker). A document whose current version has
 * the same content is skipped as unchanged; every document's outcome is counted in the run.
 */
@Injectable()
export class ConnectorSyncService {
  private readonly policy: AddressPolicy;

  constructor(
    private readonly connectors: ConnectorsRepository,
    private readonly ingest: IngestService,
    private readonly settings: ConnectorSettings,
    private readonly clock: Clock,
  ) {
    this.policy = new AddressPolicy(settings.allowedPrivate);
  }

  async sync(who: KbPrincipal, connector: ConnectorRow): Promise<ConnectorRunRow> {
    if (!connector.enabled) throw new KbError(409, 'connector_disabled', 'This connector is disabled: enable it before syncing.');
    const run = await this.connectors.startRun(who.tenantId, connector.id, who.userId, STALE_RUN_MS);
    if (!run) throw new KbError(409, 'sync_in_progress', 'A sync of this connector is already running.');
    const counts: RunCounts = { status: 'running', seen: 0, queued: 0, skipped_unchanged: 0, failed: 0, errors: [], document_ids: [] };
    const fail = (sourcePath: string, error: string) => {
      counts.failed++;
      if (counts.errors.length < MAX_ERRORS) counts.errors.push({ source_path: sourcePath, error });
    };
    try {
      let batch: Found[] = [];
      const paths = new Set<string>();
      const deadline = this.clock.nowMs() + CONNECTOR_LIMITS.maxSyncMs;
      let truncated = false;
      for await (const item of await this.itemsOf(connector)) {
        counts.seen++;
        if ('error' in item) fail(item.sourcePath, item.error);
        else if (paths.has(item.sourcePath)) fail(item.sourcePath, 'another file or URL of this connector maps to the same document path');
        else batch.push(item);
        paths.add(item.sourcePath);
        if (batch.length >= BATCH) {
          await this.feed(who.tenantId, connector, batch, counts, fail);
          batch = [];
        }
        if (this.clock.nowMs() > deadline) {
          truncated = true;
          counts.errors.push({ source_path: '', error: `the sync stopped after ${CONNECTOR_LIMITS.maxSyncMs / 1000} s: the rest waits for the next sync` });
          break;
        }
      }
      await this.feed(who.tenantId, connector, batch, counts, fail);
      counts.status = counts.failed === 0 && !truncated ? 'succeeded' : counts.queued + counts.skipped_unchanged > 0 ? 'partial' : 'failed';
    } catch (e) {
      counts.status = 'failed';
      fail('', (e as Error).message);
    }
    // The connector may have been deleted meanwhile (its runs with it): the caller still learns what happened.
    return (await this.connectors.finishRun(who.tenantId, run.id, connector.id, counts)) ?? { ...run, ...counts, finished_at: this.clock.now() };
  }

  private async itemsOf(c: ConnectorRow): Promise<AsyncIterable<SourceItem>> {
    if (c.kind === 'web') return fetchUrls((c.config as { urls: string[] }).urls, this.policy);
    // The roots may have changed since the connector was saved: check again before reading.
    const dir = await directoryUnder((c.config as { path: string }).path, this.settings.fsRoots);
    if (!dir) throw new Error('the directory is missing or no longer under an allowed root (KB_CONNECTOR_FS_ROOTS)');
    return readDirectory(dir);
  }

  private async feed(tenantId: string, c: ConnectorRow, items: Found[], counts: RunCounts, fail: (path: string, error: string) => void) {
    if (!items.length) return;
    const current = await this.connectors.currentHashes(tenantId, c.project_key, items.map((i) => i.sourcePath));
    const changed: IngestDocumentDto[] = [];
    for (const item of items) {
      const binary = isBinary(sourceTypeOf(item.mimeType)!);
      const content = binary ? item.bytes.toString('base64') : item.bytes.toString('utf8');
      // Hashed as the ingest pipeline stores it (text goes through UTF-8), so equal means unchanged.
      const hash = createHash('sha256').update(binary ? item.bytes : Buffer.from(content, 'utf8')).digest('hex');
      const doc = current.get(item.sourcePath);
      if (doc && doc.status !== 'failed' && (doc.content_hash === hash || doc.pending_hash === hash)) {
        counts.skipped_unchanged++;
        continue;
      }
      changed.push({ project_key: c.project_key, source_path: item.sourcePath, mime_type: item.mimeType, content, metadata: { connector_type: c.kind, connector_id: Number(c.id), origin: item.origin } });
    }
    if (!changed.length) return;
    try {
      const result = await this.ingest.ingest(tenantId, changed);
      for (const entry of result.documents) {
        if (entry.status === 'queued') {
          counts.queued++;
          counts.document_ids.push(String(entry.document_id));
        } else fail(entry.source_path, entry.error ?? 'not stored');
      }
    } catch (e) {
      const reason = e instanceof KbValidationError ? Object.values(e.errors).flat().join(' ') : (e as Error).message;
      for (const d of changed) fail(d.source_path, reason);
    }
  }
}
