import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { HeaderSink, RateLimitPolicy } from '@platform/contracts';
import { RateCounter, WindowCount } from '@platform/queue';

export type { WindowCount } from '@platform/queue';

/**
 * kb-api's attempt and request limits over the platform's RateCounter (shared by every replica).
 * This only names the keys: a bucket and a hash of the subject (never an email in clear); each
 * window starts with its first attempt and expires with it.
 */
@Injectable()
export class ThrottleService {
  constructor(private readonly counter: RateCounter) {}

  private key(bucket: string, parts: string[]): string {
    return `kb:throttle:${bucket}:${createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 32)}`;
  }

  /** Counts one attempt in a fixed window; returns the count so far. */
  async hit(bucket: string, parts: string[], windowSec: number): Promise<number> {
    return (await this.take(bucket, parts, windowSec)).count;
  }

  /** Counts one attempt and says when its window ends (what the RateLimit headers report). */
  take(bucket: string, parts: string[], windowSec: number): Promise<WindowCount> {
    return this.counter.take(this.key(bucket, parts), windowSec);
  }

  /** The window's count without counting (0 and a fresh window when nothing was counted). */
  peek(bucket: string, parts: string[], windowSec: number): Promise<WindowCount> {
    return this.counter.peek(this.key(bucket, parts), windowSec);
  }

  /**
   * A request limit: counts one request in the policy's window (the policy name is the bucket),
   * writes the policy's RateLimit headers on the answer and, when over the quota, Retry-After too.
   * Returns the seconds to wait when over the quota, else null; the caller picks its 429 body.
   */
  limit(res: HeaderSink, policy: RateLimitPolicy, parts: string[], units = 1): Promise<number | null> {
    return this.counter.limit(res, policy, this.key(policy.name, parts), units);
  }

  async clear(bucket: string, parts: string[]): Promise<void> {
    await this.counter.clear(this.key(bucket, parts));
  }
}
