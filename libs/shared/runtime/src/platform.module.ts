import { DynamicModule, Module, Type } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { validateEnv } from '@platform/config';
import { buildDataSourceOptions } from '@platform/database';
import { HealthModule } from '@platform/health';
import { LoggingModule, MetricsModule } from '@platform/observability';
import { RedisModule } from '@platform/queue';
import type { EntitySchema, MixedList } from 'typeorm';
import { ClockModule } from './clock';
import { LeanRoutesModule } from './fast-routes/lean-routes.module';
import { ServedOpenApiModule } from './openapi';

export interface PlatformModuleOptions {
  service: string;
  env: new () => object;
  /** The service's own database; omitted by the gateway. */
  database?: {
    defaultName: string;
    entities: MixedList<Function | string | EntitySchema>;
    migrations: MixedList<Function | string>;
  };
  redis?: boolean;
  /** false in workers and CLI contexts: no HTTP controllers for health/metrics. */
  http?: boolean;
}

/**
 * What every deployable shares: validated config, JSON logging, metrics, health/readiness, and
 * (when it has them) its Postgres database and Redis. An app module imports this once.
 */
@Module({})
export class PlatformModule {
  static forRoot(o: PlatformModuleOptions): DynamicModule {
    const imports: Array<DynamicModule | Promise<DynamicModule> | Type<unknown>> = [
      ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, cache: true, validate: validateEnv(o.env) }),
      LoggingModule.forRoot(o.service),
      HealthModule.forRoot({ http: o.http !== false }),
      ClockModule,
    ];
    if (o.http !== false) imports.push(MetricsModule.forRoot(o.service), ServedOpenApiModule, LeanRoutesModule);
    if (o.redis !== false) imports.push(RedisModule.forRoot());
    if (o.database) {
      const db = o.database;
      imports.push(
        TypeOrmModule.forRootAsync({
          inject: [ConfigService],
          // A few quick retries ride out a Postgres restart during boot; beyond that the process
          // exits with the reason (e.g. database "kb" does not exist: run migrate) and the
          // orchestrator restarts it, instead of hanging silently.
          useFactory: (config: ConfigService) => ({
            retryAttempts: 3,
            retryDelay: 1000,
            ...buildDataSourceOptions({
              url: config.getOrThrow<string>('DATABASE_URL'),
              database: config.get<string>('DATABASE_NAME') ?? db.defaultName,
              entities: db.entities,
              migrations: db.migrations,
              poolSize: config.get<number>('DATABASE_POOL_SIZE'),
              prepareAfter: config.get<number>('DATABASE_PREPARE_AFTER'),
            }),
          }),
        }),
      );
    }
    // Everything imported here is global (config, logger, health, metrics, redis, TypeORM, clock).
    return { module: PlatformModule, imports };
  }
}
