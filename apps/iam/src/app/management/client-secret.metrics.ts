import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { METRICS_REGISTRY } from '@platform/observability';
import { Gauge, Registry } from 'prom-client';
import { Clock } from '@platform/runtime';
import { ApplicationsRepository } from './applications.repository';
import { ClientSecretsService, SecretStatus } from './client-secrets.service';

const STATUSES: readonly SecretStatus[] = ['ok', 'expiring', 'expired', 'revoked', 'public'];
/** A scrape every few seconds must not become a table scan every few seconds. */
const CACHE_MS = 30_000;

/**
 * `iam_client_secrets{status}`: clients by secret_status, the figure behind the "secrets expiring"
 * alert (k8s/alerts). Counted with the same rule the management API reports, on scrape, cached.
 */
@Injectable()
export class ClientSecretMetrics implements OnModuleInit {
  private cached: { at: number; counts: Record<SecretStatus, number> } | null = null;

  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    private readonly store: ApplicationsRepository,
    private readonly secrets: ClientSecretsService,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const counts = () => this.counts();
    new Gauge({
      name: 'iam_client_secrets',
      // Shared state, read alike by every process of the service: not summed across them.
      aggregator: 'max',
      help: 'OAuth clients by secret status (ok, expiring, expired, revoked, public)',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const current = await counts();
        for (const status of STATUSES) this.set({ status }, current[status]);
      },
    });
  }

  async counts(): Promise<Record<SecretStatus, number>> {
    const now = this.clock.now().getTime();
    if (this.cached && now - this.cached.at >= 0 && now - this.cached.at < CACHE_MS) return this.cached.counts;
    const clients = await this.store.secretStates();
    const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<SecretStatus, number>;
    for (const client of clients) counts[this.secrets.secretStatus(client)]++;
    this.cached = { at: now, counts };
    return counts;
  }
}
