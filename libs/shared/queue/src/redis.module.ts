import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { REDIS_CLIENT } from '@platform/contracts';
import type Redis from 'ioredis';
import { createRedis } from './redis';

/** One shared ioredis client per process for counters, caches and health pings. */
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
          // answers 5xx rather than hanging when Redis is down.
          useFactory: (config: ConfigService) =>
            createRedis(config.getOrThrow<string>('REDIS_URL'), { maxRetriesPerRequest: 1, enableOfflineQueue: true }),
        },
      ],
      exports: [REDIS_CLIENT],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
