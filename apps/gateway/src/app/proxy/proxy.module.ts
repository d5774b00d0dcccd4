import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ReadinessService } from '@platform/health';
import { METRICS_REGISTRY } from '@platform/observability';
import { Registry } from 'prom-client';
import { GatewayEnv } from '../../config/env';
import { trustedProxies } from './forward-headers';
import { ProxyService } from './proxy.service';
import { buildRoutes, DEFAULT_ROUTES } from './route-table';

@Module({
  providers: [
    {
      provide: ProxyService,
      inject: [ConfigService, METRICS_REGISTRY],
      useFactory: (config: ConfigService<GatewayEnv, true>, registry: Registry) => {
        const custom = config.get('GATEWAY_ROUTES', { infer: true });
        const table = custom ? (JSON.parse(custom) as Record<string, string>) : DEFAULT_ROUTES;
        const limits = config.get('GATEWAY_BODY_LIMITS', { infer: true });
        const routes = buildRoutes(
          table,
          {
            iam: config.get('UPSTREAM_IAM_URL', { infer: true }),
            guardrails: config.get('UPSTREAM_GUARDRAILS_URL', { infer: true }),
            kb: config.get('UPSTREAM_KB_URL', { infer: true }),
            evidence: config.get('UPSTREAM_EVIDENCE_URL', { infer: true }),
          },
          limits ? (JSON.parse(limits) as Record<string, number>) : {},
        );
        return new ProxyService({
          routes,
          timeoutMs: config.get('GATEWAY_UPSTREAM_TIMEOUT_MS', { infer: true }),
          connections: config.get('GATEWAY_UPSTREAM_CONNECTIONS', { infer: true }),
          queueTimeoutMs: config.get('GATEWAY_QUEUE_TIMEOUT_MS', { infer: true }),
          clientBodyTimeoutMs: config.get('GATEWAY_CLIENT_BODY_TIMEOUT_MS', { infer: true }),
          clientBodyDeadlineMs: config.get('GATEWAY_CLIENT_BODY_DEADLINE_MS', { infer: true }),
          clientBodyMinRate: config.get('GATEWAY_CLIENT_BODY_MIN_RATE', { infer: true }),
          bodyBufferBytes: config.get('GATEWAY_BODY_BUFFER_BYTES', { infer: true }),
          readAheadBudgetBytes: config.get('GATEWAY_READ_AHEAD_BUDGET_BYTES', { infer: true }),
          uploadsPerClient: config.get('GATEWAY_UPLOADS_PER_CLIENT', { infer: true }),
          trustedProxies: trustedProxies(config.get('GATEWAY_TRUSTED_PROXIES', { infer: true })),
          registry,
        });
      },
    },
  ],
  exports: [ProxyService],
})
export class ProxyModule implements OnModuleInit {
  constructor(
    private readonly proxy: ProxyService,
    private readonly readiness: ReadinessService,
  ) {}

  onModuleInit(): void {
    // Upstreams are reported but not critical: one service being down must not take the
    // gateway (and with it every other service) out of rotation.
    for (const { name, url } of this.proxy.upstreams) {
      this.readiness.register({ name: `upstream:${name}`, critical: false, check: () => this.proxy.probe(url) });
    }
  }
}
