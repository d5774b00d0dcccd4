import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { Job, Queue } from 'bullmq';
import { Page, PageWindow, pageWindow, toPage } from '../../admin/pagination';
import { KbError } from '../../errors/kb-errors';
import type { FailedJobsQueryDto } from './failed-jobs.dto';

/** The queues kb-api consumes (contracts: a service only ever consumes its own queues). */
export const KB_QUEUE_NAMES = [QUEUES.kbIngest] as const;
const DEFAULT_QUEUE = QUEUES.kbIngest;
/** Failed jobs are trimmed after 7 days (DEFAULT_JOB_OPTIONS); a tenant's list reads at most this many. */
const SCAN_LIMIT = 5000;
const SCAN_BATCH = 500;

export interface FailedJobView {
  id: string;
  queue: string;
  name: string;
  data: Record<string, unknown>;
  failed_reason: string;
  attempts_made: number;
  max_attempts: number;
  created_at: string;
  failed_at: string | null;
  stacktrace: string[];
}

const notFound = () => new KbError(404, 'not_found', 'Failed job not found.');

/**
 * BullMQ failed jobs of kb-api's queues that belong to the active tenant (their data names it):
 * list, retry with fresh attempts, remove. Another tenant's job, or one not failed, is a 404.
 */
@Injectable()
export class FailedJobsService {
  private readonly queues: Map<string, Queue>;

  constructor(@InjectQueue(QUEUES.kbIngest) ingest: Queue) {
    this.queues = new Map([[QUEUES.kbIngest, ingest]]);
  }

  async list(tenantId: string, q: FailedJobsQueryDto): Promise<Page<FailedJobView>> {
    const window = pageWindow(q);
    const names = q.queue ? [q.queue] : [...KB_QUEUE_NAMES];
    const from = q.from ? Date.parse(q.from) : -Infinity;
    const to = q.to ? Date.parse(q.to) : Infinity;
    const needle = q.search?.toLowerCase();
    const matching: FailedJobView[] = [];
    for (const name of names) {
      for (const job of await this.failedOf(this.queues.get(name)!)) {
        if (job.data?.tenantId !== tenantId) continue;
        const failedAt = job.finishedOn ?? job.timestamp;
        if (failedAt < from || failedAt > to) continue;
        if (needle && !`${job.name} ${job.id} ${job.failedReason}`.toLowerCase().includes(needle))
          continue;
        matching.push(view(name, job));
      }
    }
    matching.sort((a, b) => (b.failed_at ?? '').localeCompare(a.failed_at ?? ''));
    return page(matching, window);
  }

  async retry(
    tenantId: string,
    id: string,
    queue: string = DEFAULT_QUEUE,
  ): Promise<{ id: string; queue: string; state: string }> {
    const job = await this.failedJob(tenantId, id, queue);
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return { id: job.id!, queue, state: await job.getState() };
  }

  async remove(tenantId: string, id: string, queue: string = DEFAULT_QUEUE): Promise<void> {
    const job = await this.failedJob(tenantId, id, queue);
    await job.remove();
  }

  private async failedJob(tenantId: string, id: string, queue: string): Promise<Job> {
    const q = this.queues.get(queue);
    const job = q && id.length <= 200 ? await q.getJob(id) : undefined;
    if (!job || job.data?.tenantId !== tenantId || !(await job.isFailed())) throw notFound();
    return job;
  }

  private async failedOf(queue: Queue): Promise<Job[]> {
    const jobs: Job[] = [];
    for (let start = 0; start < SCAN_LIMIT; start += SCAN_BATCH) {
      const batch = await queue.getFailed(start, start + SCAN_BATCH - 1);
      jobs.push(...batch.filter((j): j is Job => Boolean(j)));
      if (batch.length < SCAN_BATCH) break;
    }
    return jobs;
  }
}

function view(queue: string, job: Job): FailedJobView {
  return {
    id: job.id!,
    queue,
    name: job.name,
    data: job.data as Record<string, unknown>,
    failed_reason: job.failedReason,
    attempts_made: job.attemptsMade,
    max_attempts: job.opts.attempts ?? 1,
    created_at: new Date(job.timestamp).toISOString(),
    failed_at: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    stacktrace: (job.stacktrace ?? []).slice(-3),
  };
}

function page<T>(all: T[], w: PageWindow): Page<T> {
  return toPage(all.slice(w.offset, w.offset + w.perPage), all.length, w);
}
