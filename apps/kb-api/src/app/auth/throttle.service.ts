import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { REDIS_CLIENT } from '@platform/contracts';
import type Redis from 'ioredis';

/**
 * Attempt counters in Redis, so every replica counts the same attempts. Keys carry a hash of the
 * subject (never an email in clear) and expire with their window.
 */
@Injectable()
export class ThrottleService {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis) {}

  private key(bucket: string, parts: string[]): string {
    return `kb:throttle:${bucket}:${createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 32)}`;
  }

  /** Seconds until the window frees up when `max` is reached, else 0. */
  async blockedFor(bucket: string, parts: string[], max: number): Promise<number> {
    const key = this.key(bucket, parts);
    const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    return Number(count ?? 0) >= max ? Math.max(1, Math.ceil(ttl / 1000)) : 0;
  }

  /** Counts one attempt in a fixed window; returns the count so far. */
  async hit(bucket: string, parts: string[], windowSec: number): Promise<number> {
    const key = this.key(bucket, parts);
    const [[, count]] = (await this.redis.multi().incr(key).expire(key, windowSec, 'NX').exec()) as [[null, number]];
    return count;
  }

  async clear(bucket: string, parts: string[]): Promise<void> {
    await this.redis.del(this.key(bucket, parts));
  }
}
