import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { RateCounter } from './rate-counter';

/** A response's header surface, as Express's and node:http's both offer it. */
function headers() {
  const set = new Map<string, string>();
  return { set, getHeader: (n: string) => set.get(n.toLowerCase()), setHeader: (n: string, v: string) => set.set(n.toLowerCase(), v) };
}

describe('RateCounter on the real Redis', () => {
  const prefix = `rc-${randomBytes(4).toString('hex')}:`;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { keyPrefix: prefix });
  const plain = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const counter = new RateCounter(redis);

  afterAll(async () => {
    await counter.onApplicationShutdown();
    await Promise.all([redis.quit(), plain.quit()]);
  });

  it('counts exactly under concurrency, under the client key prefix, with the window set by the first unit', async () => {
    const counts = await Promise.all(Array.from({ length: 50 }, () => counter.take('burst', 30)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(counts.every((c) => c.resetSec > 0 && c.resetSec <= 30)).toBe(true);
    expect(await plain.get(`${prefix}burst`)).toBe('50');
    const ttl = await plain.ttl(`${prefix}burst`);
    expect(ttl).toBeGreaterThan(25);
    // A later unit does not extend the window (steady traffic cannot keep it alive forever).
    await plain.expire(`${prefix}burst`, 5);
    await counter.take('burst', 30);
    expect(await plain.ttl(`${prefix}burst`)).toBeLessThanOrEqual(5);
  });

  it('peeks without counting, and clears', async () => {
    expect(await counter.peek('quiet', 60)).toEqual({ count: 0, resetSec: 0 });
    await counter.take('quiet', 60);
    await counter.take('quiet', 60);
    expect(await counter.peek('quiet', 60)).toEqual({ count: 2, resetSec: 60 });
    await counter.clear('quiet');
    expect(await counter.peek('quiet', 60)).toEqual({ count: 0, resetSec: 0 });
  });

  it('writes the policy headers on every answer and Retry-After once over the quota', async () => {
    const policy = { name: 'test', quota: 2, windowSec: 60 };
    const first = headers();
    expect(await counter.limit(first, policy, 'limited')).toBeNull();
    expect(first.set.get('ratelimit-policy')).toBe('"test";q=2;w=60');
    expect(first.set.get('ratelimit')).toBe('"test";r=1;t=60');
    expect(await counter.limit(headers(), policy, 'limited')).toBeNull();
    const refused = headers();
    expect(await counter.limit(refused, policy, 'limited')).toBe(60);
    expect(refused.set.get('ratelimit')).toBe('"test";r=0;t=60');
    expect(refused.set.get('retry-after')).toBe('60');
  });
});
