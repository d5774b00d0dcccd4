import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { REDIS_CLIENT } from '@platform/contracts';
import { approvedCallQueue, GuardrailsHost, GuardrailsSettingsService, sqlRunnerFor, startGuardrailsHost } from '@platform/guardrails';
import { createRedisSubscriber, redisOptionsFromUrl } from '@platform/queue';
import type Redis from 'ioredis';
import { PinoLogger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { GuardrailsAdminEnv } from '../../config/env';
import { configuredDefaults, configuredTables } from './guardrails-config';

export const GUARDRAILS = Symbol.for('guardrails-admin.GUARDRAILS');
export const GUARDRAILS_STORES = Symbol.for('guardrails-admin.GUARDRAILS_STORES');
const GUARDRAILS_HOST = Symbol.for('guardrails-admin.GUARDRAILS_HOST');

/** Typed reads of this app's validated env. */
const envOf = (config: ConfigService) => ({
  get: <K extends keyof GuardrailsAdminEnv>(key: K) => config.get(key) as GuardrailsAdminEnv[K],
});

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
    {
      provide: GUARDRAILS_HOST,
      inject: [ConfigService, DataSource, REDIS_CLIENT, PinoLogger],
      useFactory: async (config: ConfigService, dataSource: DataSource, redis: Redis, logger: PinoLogger): Promise<AdminGuardrailsHost> => {
        const env = envOf(config);
        const subscriber = createRedisSubscriber(config.getOrThrow<string>('REDIS_URL'));
        const host = await startGuardrailsHost({
          db: sqlRunnerFor(dataSource),
          subscriber,
          publisher: redis,
          channel: env.get('GUARDRAILS_SETTINGS_CHANNEL'),
          defaults: configuredDefaults(env.get('GUARDRAILS_SETTINGS_DEFAULTS')),
          tables: configuredTables(env.get('GUARDRAILS_TABLES')),
          sidecar: env.get('GUARDRAILS_HITL_REQUESTS_STORE'),
          options: { matchTimeoutMs: env.get('GUARDRAILS_MATCH_TIMEOUT_MS'), approvalTtlMinutes: env.get('GUARDRAILS_APPROVAL_TTL_MINUTES') },
          onWarning: (message, err) => logger.warn({ err }, message),
        });
        const queue = approvedCallQueue({ connection: redisOptionsFromUrl(config.getOrThrow<string>('REDIS_URL')), prefix: env.get('GUARDRAILS_QUEUE_PREFIX') });
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
