import Redis, { RedisOptions } from 'ioredis';

/**
 * ioredis options for BullMQ and everything else: workers need maxRetriesPerRequest null (a
 * blocking command must not fail after N retries), and reconnection backs off but never stops,
 * so a Redis restart is survived without a process restart.
 */
export function redisOptionsFromUrl(url: string, overrides: RedisOptions = {}): RedisOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 5000),
    ...overrides,
  };
}

export function createRedis(url: string, overrides: RedisOptions = {}): Redis {
  return new Redis(redisOptionsFromUrl(url, overrides));
}

/**
 * A connection for SUBSCRIBE only. No ready check: after a reconnect ioredis would send INFO while
 * the connection is already back in subscriber mode, which Redis refuses.
 */
export function createRedisSubscriber(url: string): Redis {
  return createRedis(url, { enableReadyCheck: false });
}
