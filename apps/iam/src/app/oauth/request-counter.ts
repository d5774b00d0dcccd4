import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import type Redis from 'ioredis';

type CountingRedis = Redis & { oauthWindowCount(key: string, ttlSec: number): Promise<number> };

/** INCR and EXPIRE of one window key, atomically, in one round trip. */
const COUNT_SCRIPT = `local n = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1])
return n`;

/**
 * Counts /oauth requests per rate-limit window in Redis (shared by every replica). It uses a
 * connection of its own with auto-pipelining: counts from requests handled in the same tick go
 * out in one write, which matters at token-endpoint rates; each count is still one atomic script
 * call, so the budget is exact.
 */
@Injectable()
export class OAuthRequestCounter implements OnApplicationShutdown {
  private connection?: CountingRedis;

  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis) {}

  async increment(key: string, ttlSec: number): Promise<number> {
    this.connection ??= this.connect();
    return Number(await this.connection.oauthWindowCount(key, ttlSec));
  }

  private connect(): CountingRedis {
    const connection = this.redis.duplicate({ enableAutoPipelining: true }) as CountingRedis;
    connection.defineCommand('oauthWindowCount', { numberOfKeys: 1, lua: COUNT_SCRIPT });
    return connection;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}
