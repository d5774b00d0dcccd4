import { Global, Inject, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { REDIS_CLIENT } from '@platform/contracts';
import {
  approvedCallQueue,
  createGuardrails,
  createPostgresStores,
  Guardrails,
  GuardrailsSettingsService,
  LiveSettings,
  MemoryApprovalSidecar,
  PostgresGuardrailsStores,
  RedisSettingsPublisher,
  sqlRunnerFor,
} from '@platform/guardrails';
import { createRedis, redisOptionsFromUrl } from '@platform/queue';
import type Redis from 'ioredis';
import { PinoLogger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { GuardrailsAdminEnv } from '../../config/env';
import { configuredDefaults, configuredTables } from './guardrails-config';

export const GUARDRAILS = Symbol.for('guardrails-admin.GUARDRAILS');
export const GUARDRAILS_STORES = Symbol.for('guardrails-admin.GUARDRAILS_STORES');

/** Typed reads of this app's validated env. */
const envOf = (config: ConfigService) => ({
  get: <K extends keyof GuardrailsAdminEnv>(key: K) => config.get(key) as GuardrailsAdminEnv[K],
});

/**
 * Keeps the process's Guardrails instance on the live settings: loaded at boot, reloaded on every
 * SettingsChanged (from this host or any other), closed on shutdown.
 */
@Injectable()
export class GuardrailsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private live?: LiveSettings;
  private subscriber?: Redis;
  private approvedCalls?: { close(): Promise<void> };

  constructor(
    @Inject(GUARDRAILS) private readonly guardrails: Guardrails,
    private readonly settings: GuardrailsSettingsService,
    private readonly config: ConfigService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext('guardrails');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscriber = createRedis(this.config.getOrThrow<string>('REDIS_URL'));
    this.live = new LiveSettings({
      load: () => this.settings.effective(),
      apply: (next, event) => {
        this.guardrails.updateSettings(next);
        if (event) this.logger.info({ keys: event.keys }, 'settings reloaded after SettingsChanged');
      },
      subscriber: this.subscriber,
      channel: envOf(this.config).get('GUARDRAILS_SETTINGS_CHANNEL'),
      onError: (e) => this.logger.warn({ err: e }, 'settings reload failed; keeping the last good settings'),
    });
    await this.live.start();
    // This app owns no tools: an approved call goes to the host that registered its executor.
    const queue = approvedCallQueue({
      connection: redisOptionsFromUrl(this.config.getOrThrow<string>('REDIS_URL')),
      prefix: envOf(this.config).get('GUARDRAILS_QUEUE_PREFIX'),
    });
    this.approvedCalls = queue;
    this.guardrails.setApprovedCallDispatcher(queue.dispatch);
    await this.guardrails.warmUp();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.live?.stop();
    this.subscriber?.disconnect();
    await this.approvedCalls?.close();
    await this.guardrails.close();
  }
}

@Global()
@Module({
  providers: [
    {
      provide: GUARDRAILS_STORES,
      inject: [ConfigService, DataSource],
      useFactory: (config: ConfigService, dataSource: DataSource): PostgresGuardrailsStores =>
        createPostgresStores(sqlRunnerFor(dataSource), {
          tables: configuredTables(envOf(config).get('GUARDRAILS_TABLES')),
          sidecar: envOf(config).get('GUARDRAILS_HITL_REQUESTS_STORE') === 'database',
        }),
    },
    {
      provide: GuardrailsSettingsService,
      inject: [ConfigService, GUARDRAILS_STORES, REDIS_CLIENT, PinoLogger],
      useFactory: (config: ConfigService, stores: PostgresGuardrailsStores, redis: Redis, logger: PinoLogger) =>
        new GuardrailsSettingsService(stores.settings, configuredDefaults(envOf(config).get('GUARDRAILS_SETTINGS_DEFAULTS')), {
          publisher: new RedisSettingsPublisher(redis, envOf(config).get('GUARDRAILS_SETTINGS_CHANNEL')),
          onPublishError: (e) => logger.warn({ err: e }, 'SettingsChanged not published; hosts catch up on their periodic reload'),
        }),
    },
    {
      provide: GUARDRAILS,
      inject: [ConfigService, GUARDRAILS_STORES, GuardrailsSettingsService, PinoLogger],
      useFactory: async (config: ConfigService, stores: PostgresGuardrailsStores, settings: GuardrailsSettingsService, logger: PinoLogger) => {
        const env = envOf(config);
        const sidecarStore = env.get('GUARDRAILS_HITL_REQUESTS_STORE');
        return createGuardrails(
          await settings.effective(),
          {
            audit: stores.audit,
            firewallLog: stores.firewallLog,
            outputStats: stores.outputStats,
            approvals: stores.approvals,
            approvalSidecar: sidecarStore === 'database' ? stores.approvalSidecar : sidecarStore === 'array' ? new MemoryApprovalSidecar() : undefined,
          },
          {
            matchTimeoutMs: env.get('GUARDRAILS_MATCH_TIMEOUT_MS'),
            approvalTtlMinutes: env.get('GUARDRAILS_APPROVAL_TTL_MINUTES'),
            onPortError: (e, port) => logger.warn({ err: e, port }, 'guardrails store write failed'),
          },
        );
      },
    },
    GuardrailsLifecycle,
  ],
  exports: [GUARDRAILS, GUARDRAILS_STORES, GuardrailsSettingsService],
})
export class GuardrailsRuntimeModule {}
