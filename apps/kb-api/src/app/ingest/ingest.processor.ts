import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import { QUEUES } from '@platform/contracts';
import { Job } from 'bullmq';
import { PinoLogger } from 'nestjs-pino';
import { IndexerService } from './indexer.service';
import type { IngestJobData } from './ingest.service';
import { KbConfig } from '../../config/kb-config';

/**
 * Concurrency, and the lock and stalled-job check (KB_WORKER_LOCK_MS). Decorator options are read
 * when this file loads, before Nest validates the whole env at boot (which refuses bad values), and
 * importing a module must not need a complete env: so the two settings are read leniently.
 */
function workerOptions() {
  const lockDuration = KbConfig.numberBeforeBoot('KB_WORKER_LOCK_MS');
  const concurrency = KbConfig.numberBeforeBoot('KB_WORKER_CONCURRENCY');
  return { concurrency, lockDuration, stalledInterval: lockDuration };
}

/** Runs IngestDocumentJob in the kb worker; retries with backoff, the last failure marks the document. */
@Processor(QUEUES.kbIngest, workerOptions())
export class IngestProcessor extends WorkerHost {
  constructor(
    private readonly indexer: IndexerService,
    private readonly logger: PinoLogger,
  ) {
    super();
    logger.setContext('ingest');
  }

  async process(job: Job<IngestJobData>) {
    const outcome = await this.indexer.index(job.data);
    this.logger.info({ tenant: job.data.tenantId, document_id: job.data.documentId, outcome, attempt: job.attemptsMade + 1 }, 'ingest job done');
    return outcome;
  }

  @OnWorkerEvent('failed')
  async onFailed(job: Job<IngestJobData> | undefined, error: Error) {
    if (!job) return;
    this.logger.warn({ tenant: job.data.tenantId, document_id: job.data.documentId, attempt: job.attemptsMade, err: error.message }, 'ingest job failed');
    if (job.attemptsMade >= (job.opts.attempts ?? 1)) await this.indexer.markFailed(job.data, error.message);
  }
}
