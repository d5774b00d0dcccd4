import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { METRICS_REGISTRY } from '@platform/observability';
import { Queue } from 'bullmq';
import { Gauge, Registry } from 'prom-client';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * `kb_ingest_jobs{state}`: the ingest queue's depth on scrape, the figure behind the "ingest backlog"
 * and "ingest failures" alerts (k8s/alerts). Every replica reports the same queue: alert on max().
 */
@Injectable()
export class IngestQueueMetrics implements OnModuleInit {
  constructor(
    // Absent in the CLI's seed context, which has no /metrics.
    @Optional() @Inject(METRICS_REGISTRY) private readonly registry: Registry | undefined,
    @InjectQueue(QUEUES.kbIngest) private readonly queue: Queue,
  ) {}

  onModuleInit(): void {
    const queue = this.queue;
    if (!this.registry || this.registry.getSingleMetric('kb_ingest_jobs')) return;
    new Gauge({
      name: 'kb_ingest_jobs',
      // Shared state, read alike by every process of the service: not summed across them.
      aggregator: 'max',
      help: 'IngestDocumentJob jobs in the kb.ingest queue by state',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        const counts = await queue.getJobCounts(...STATES);
        for (const state of STATES) this.set({ state }, counts[state] ?? 0);
      },
    });
  }
}
