import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import { approvedCallQueue, GuardrailsHost, GuardrailsSettingsService, startGuardrailsHost, TransactionalSqlRunner } from '@platform/guardrails';
import { createRedisSubscriber, redisOptionsFromUrl } from '@platform/queue';
import { Clock } from '@platform/runtime';
import type Redis from 'ioredis';
import { PinoLogger } from 'nestjs-pino';
import { GuardrailsAdminConfig } from '../../config/guardrails-admin-config';
import { GUARDRAILS_SQL, guardrailsSqlProvider } from './guardrails-database';

export const GUARDRAILS = Symbol.for('guardrails-admin.GUARDRAILS');
export const GUARDRAILS_STORES = Symbol.for('guardrails-admin.GUARDRAILS_STORES');
const GUARDRAILS_HOST = Symbol.for('guardrails-admin.GUARDRAILS_HOST');

interface AdminGuardrailsHost extends GuardrailsHost {
  close(): Promise<void>;
}

/**
 * This process's guardrails on the shared database, kept on the live settings. The admin API owns
 * no tools: an approved call goes over the durable queue to the host that registered its executor.
 */
@Global()
@Module({
  providers: [
    guardrailsSqlProvider,
    {
      provide: GUARDRAILS_HOST,
      inject: [GuardrailsAdminConfig, GUARDRAILS_SQL, REDIS_CLIENT, PinoLogger, Clock],
      useFactory: async (config: GuardrailsAdminConfig, db: TransactionalSqlRunner, redis: Redis, logger: PinoLogger, clock: Clock): Promise<AdminGuardrailsHost> => {
        const subscriber = createRedisSubscriber(config.get('REDIS_URL'));
        const host = await startGuardrailsHost({
          db,
          subscriber,
          publisher: redis,
          channel: config.get('GUARDRAILS_SETTINGS_CHANNEL'),
          defaults: config.settingsDefaults(),
          tables: config.tables(),
          sidecar: config.get('GUARDRAILS_HITL_REQUESTS_STORE'),
          options: { matchTimeoutMs: config.get('GUARDRAILS_MATCH_TIMEOUT_MS'), approvalTtlMinutes: config.get('GUARDRAILS_APPROVAL_TTL_MINUTES') },
          onWarning: (message, err) => logger.warn({ err }, message),
          clock,
        });
        const queue = approvedCallQueue({ connection: redisOptionsFromUrl(config.get('REDIS_URL')), prefix: config.get('GUARDRAILS_QUEUE_PREFIX') });
        host.guardrails.setApprovedCallDispatcher(queue.dispatch);
        return {
          ...host,
          close: async () => {
            await host.stop();
            subscriber.disconnect();
            await queue.close();
          },
        };
      },
    },
    { provide: GUARDRAILS, inject: [GUARDRAILS_HOST], useFactory: (h: GuardrailsHost) => h.guardrails },
    { provide: GUARDRAILS_STORES, inject: [GUARDRAILS_HOST], useFactory: (h: GuardrailsHost) => h.stores },
    { provide: GuardrailsSettingsService, inject: [GUARDRAILS_HOST], useFactory: (h: GuardrailsHost) => h.settings },
  ],
  exports: [GUARDRAILS, GUARDRAILS_STORES, GuardrailsSettingsService],
})
export class GuardrailsRuntimeModule implements OnApplicationShutdown {
  constructor(@Inject(GUARDRAILS_HOST) private readonly host: AdminGuardrailsHost) {}

  onApplicationShutdown(): Promise<void> {
    return this.host.close();
  }
}
