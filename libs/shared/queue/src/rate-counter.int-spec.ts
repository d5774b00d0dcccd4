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

  it('reserves attempts on every budget atomically or on none, and settles a success per budget (clear or refund)', async () => {
    const budgets = [
      { key: 'acct', limit: 3, onSuccess: 'clear' as const },
      { key: 'ip', limit: 5, onSuccess: 'refund' as const },
    ];
    // Twenty at once: exactly the account's three get through, and nothing is counted for the rest.
    const burst = await Promise.all(Array.from({ length: 20 }, () => counter.reserve(budgets, 60)));
    expect(burst.filter(Boolean)).toHaveLength(3);
    expect(await plain.hgetall(`${prefix}acct`)).toEqual({ n: '3', open: '3' });
    expect(await plain.hget(`${prefix}ip`, 'n')).toBe('3');
    expect(await plain.ttl(`${prefix}acct`)).toBeGreaterThan(55);
    // Two fail, one succeeds: the account keeps nothing but what is still open (none), the IP its two failures.
    await counter.settle(budgets, false);
    await counter.settle(budgets, false);
    await counter.settle(budgets, true);
    expect(await plain.exists(`${prefix}acct`)).toBe(0);
    expect(await plain.hgetall(`${prefix}ip`)).toEqual({ n: '2', open: '0' });
    // A success while others are being checked keeps those counted.
    expect(await counter.reserve(budgets, 60)).toBe(true);
    expect(await counter.reserve(budgets, 60)).toBe(true);
    await counter.settle(budgets, true);
    expect(await plain.hgetall(`${prefix}acct`)).toEqual({ n: '1', open: '1' });
    await counter.settle(budgets, false);
    // The IP holds two earlier failures and one of these two (the success was refunded): two more, then none.
    expect(await plain.hget(`${prefix}ip`, 'n')).toBe('3');
    expect(await counter.reserve([{ key: 'ip', limit: 5, onSuccess: 'refund' }], 60)).toBe(true);
    expect(await counter.reserve([{ key: 'ip', limit: 5, onSuccess: 'refund' }], 60)).toBe(true);
    expect(await counter.reserve([{ key: 'other', limit: 5, onSuccess: 'clear' }, { key: 'ip', limit: 5, onSuccess: 'refund' }], 60)).toBe(false);
    expect(await plain.exists(`${prefix}other`)).toBe(0);
  });
});
