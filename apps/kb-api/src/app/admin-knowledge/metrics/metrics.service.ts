import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import { QUEUES, REDIS_CLIENT } from '@platform/contracts';
import { Clock } from '@platform/runtime';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { MetricsRepository, SeriesMetric } from './metrics.repository';

export type CheckStatus = 'ok' | 'degraded';

export interface HealthCheck {
  status: CheckStatus;
  latency_ms: number;
  detail?: string;
  [extra: string]: unknown;
}

const CHECK_TIMEOUT_MS = 2_000;
/** More waiting ingest jobs than this means the workers are not keeping up. */
export const QUEUE_BACKLOG_LIMIT = 1_000;
const INGEST_STATES = ['waiting', 'active', 'delayed', 'failed', 'paused'] as const;

const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

/** The admin dashboard: counts over the tenant's data, chat quality windows, and dependency health. */
@Injectable()
export class MetricsService {
  constructor(
    private readonly metrics: MetricsRepository,
    @InjectQueue(QUEUES.kbIngest) private readonly queue: Queue,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    private readonly clock: Clock,
  ) {}

  async overview(tenantId: string) {
    const now = this.clock.now();
    const [inventory, chats, feedback, queue] = await Promise.all([
      this.metrics.inventory(tenantId),
      this.metrics.chatWindows(tenantId, now),
      this.metrics.feedback(tenantId),
      this.queue.getJobCounts(...INGEST_STATES),
    ]);
    return {
      ...inventory,
      chats: {
        last_24h: { total: chats.chats_24h, refused: chats.refused_24h, refusal_rate: rate(chats.refused_24h, chats.chats_24h) },
        last_7d: { total: chats.chats_7d, refused: chats.refused_7d, refusal_rate: rate(chats.refused_7d, chats.chats_7d) },
        mean_confidence_7d: chats.mean_confidence_7d,
      },
      // The ingest queue is shared by every tenant; the tenant's own backlog is its pending documents.
      ingest_queue: { ...queue, depth: (queue['waiting'] ?? 0) + (queue['delayed'] ?? 0) + (queue['active'] ?? 0), tenant_pending_documents: inventory.documents_by_status['pending'] ?? 0 },
      feedback: { should_have_cited: feedback['should_have_cited'] ?? 0, not_relevant: feedback['not_relevant'] ?? 0 },
      generated_at: now.toISOString(),
    };
  }

  async timeseries(tenantId: string, metric: SeriesMetric, days: number) {
    const points = await this.metrics.series(tenantId, metric, days, this.clock.now());
    return { metric, days, data: points, total: points.reduce((s, p) => s + p.value, 0) };
  }

  async health() {
    const [database, redis, queue, worker] = await Promise.all([
      check(async () => {
        await this.metrics.ping();
        return {};
      }),
      check(async () => {
        await this.redis.ping();
        return {};
      }),
      check(async () => {
        const counts = await this.queue.getJobCounts(...INGEST_STATES);
        const backlog = counts['waiting'] ?? 0;
        return backlog > QUEUE_BACKLOG_LIMIT ? { ...counts, status: 'degraded' as const, detail: `${backlog} ingest jobs waiting` } : counts;
      }),
      // BullMQ workers register their connection with the queue: a connected worker is the heartbeat.
      check(async () => {
        const workers = (await this.queue.getWorkers()).length;
        return workers === 0 ? { workers, status: 'degraded' as const, detail: 'no worker is connected to the ingest queue' } : { workers };
      }),
    ]);
    const checks = { database, redis, queue, worker };
    const status: CheckStatus = Object.values(checks).every((c) => c.status === 'ok') ? 'ok' : 'degraded';
    return { status, checks, checked_at: this.clock.now().toISOString() };
  }
}

/** Runs one probe with a time limit; a failure or timeout is a degraded check, never a 500. */
async function check(probe: () => Promise<Record<string, unknown>>): Promise<HealthCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const result = await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok', ...result, latency_ms: Math.round(performance.now() - started) };
  } catch (e) {
    return { status: 'degraded', latency_ms: Math.round(performance.now() - started), detail: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
