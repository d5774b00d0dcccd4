import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { applyRateLimitHeaders, HeaderSink, RateLimitPolicy, REDIS_CLIENT, retryAfterSec } from '@platform/contracts';
import type Redis from 'ioredis';

export interface WindowCount {
  count: number;
  /** Seconds until the window's counter expires. */
  resetSec: number;
}

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

  /** Counts one attempt in a fixed window; returns the count so far. */
  async hit(bucket: string, parts: string[], windowSec: number): Promise<number> {
    return (await this.take(bucket, parts, windowSec)).count;
  }

  /** Counts one attempt and says when its window ends (what the RateLimit headers report). */
  async take(bucket: string, parts: string[], windowSec: number): Promise<WindowCount> {
    const key = this.key(bucket, parts);
    const [[, count], , [, ttl]] = (await this.redis.multi().incr(key).expire(key, windowSec, 'NX').pttl(key).exec()) as [[null, number], unknown, [null, number]];
    return { count, resetSec: ttl > 0 ? Math.ceil(ttl / 1000) : windowSec };
  }

  /** The window's count without counting (0 and a fresh window when nothing was counted). */
  async peek(bucket: string, parts: string[], windowSec: number): Promise<WindowCount> {
    const key = this.key(bucket, parts);
    const [count, ttl] = await Promise.all([this.redis.get(key), this.redis.pttl(key)]);
    return { count: Number(count ?? 0), resetSec: ttl > 0 ? Math.ceil(ttl / 1000) : count === null ? 0 : windowSec };
  }

  /**
   * A request limit: counts one request in the policy's window (the policy name is the bucket),
   * writes the policy's RateLimit headers on the answer and, when over the quota, Retry-After too.
   * Returns the seconds to wait when over the quota, else null; the caller picks its 429 body.
   */
  async limit(res: HeaderSink, policy: RateLimitPolicy, parts: string[]): Promise<number | null> {
    const { count, resetSec } = await this.take(policy.name, parts, policy.windowSec);
    const state = { remaining: policy.quota - count, resetSec };
    const exceeded = count > policy.quota;
    applyRateLimitHeaders(res, policy, state, exceeded);
    return exceeded ? retryAfterSec(state) : null;
  }

  async clear(bucket: string, parts: string[]): Promise<void> {
    await this.redis.del(this.key(bucket, parts));
  }
}
