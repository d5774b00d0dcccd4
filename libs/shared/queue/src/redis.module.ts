import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { REDIS_CLIENT } from '@platform/contracts';
import type Redis from 'ioredis';
import { RateCounter } from './rate-counter';
import { createRedis } from './redis';

/** One shared ioredis client per process for counters, caches and health pings, and the rate counter over it. */
@Global()
@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis) {}

  static forRoot(): DynamicModule {
    return {
      module: RedisModule,
      providers: [
        {
          provide: REDIS_CLIENT,
          inject: [ConfigService],
          // Commands fail fast while disconnected (instead of queueing forever) so a request
          // answers 5xx rather than hanging when Redis is down. REDIS_PREFIX namespaces every key,
          // so services (and test runs) sharing one Redis never see each other's counters.
          useFactory: (config: ConfigService) => {
            const prefix = config.get<string>('REDIS_PREFIX');
            return createRedis(config.getOrThrow<string>('REDIS_URL'), {
              maxRetriesPerRequest: 1,
              enableOfflineQueue: true,
              keyPrefix: prefix ? `${prefix}:` : undefined,
            });
          },
        },
        RateCounter,
      ],
      exports: [REDIS_CLIENT, RateCounter],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
