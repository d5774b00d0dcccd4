import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { CacheLoad, PubSubInvalidatedCache } from './invalidated-cache';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function counted(state: { value: string | null; tag: string }) {
  const c = {
    calls: 0,
    load: async (): Promise<CacheLoad<string> | null> => {
      c.calls++;
      return state.value === null ? null : { value: state.value, tag: state.tag };
    },
  };
  return c;
}

/** Resolves once the cache serves from memory (its subscription is live). */
async function untilLive(cache: PubSubInvalidatedCache<string>) {
  for (let i = 0; i < 200; i++) {
    const probe = counted({ value: 'probe', tag: 'probe' });
    await cache.get('probe', probe.load);
    await cache.get('probe', probe.load);
    if (probe.calls === 1) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('cache never went live');
}

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('PubSubInvalidatedCache on the real Redis', () => {
  const channel = `ic-${randomBytes(4).toString('hex')}:changed`;
  const connections: Redis[] = [];
  const connect = () => {
    const redis = new Redis(REDIS_URL);
    connections.push(redis);
    return redis;
  };
  const admin = connect();
  const caches: PubSubInvalidatedCache<string>[] = [];
  const replica = () => {
    const cache = new PubSubInvalidatedCache<string>(connect(), { channel, ttlMs: 60_000, name: 'TestCache' });
    caches.push(cache);
    return cache;
  };

  afterAll(async () => {
    await Promise.all(caches.map((c) => c.close()));
    await Promise.all(connections.map((c) => c.quit()));
  });

  it('keeps receiving invalidations after its subscriber connection is dropped and reconnects', async () => {
    const a = replica();
    const b = replica();
    await Promise.all([untilLive(a), untilLive(b)]);

    // What a network cut or a Redis failover does: the server drops b's subscriber connection.
    const list = (await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
    const ids = list
      .split('\n')
      .filter((line) => line.includes(`name=cache:${channel} `))
      .map((line) => /\bid=(\d+)/.exec(line)![1]);
    expect(ids).toHaveLength(2);
    await admin.client('KILL', 'ID', ids[1]);
    await admin.client('KILL', 'ID', ids[0]);

    // Both come back (serving from memory again), and a change published now reaches the other one.
    await Promise.all([untilLive(a), untilLive(b)]);
    const state = { value: 'before' as string | null, tag: 'user-1' };
    await b.get('k1', counted(state).load);
    const again = counted(state);
    await b.get('k1', again.load);
    expect(again.calls).toBe(0);
    state.value = 'after';
    await a.invalidate('user-1');
    // Well inside the TTL (a minute here): only the message can have dropped the entry.
    await eventually(async () => (await b.get('k1', counted(state).load)) === 'after', 3000);
  });

  it('starts empty after a reconnect (messages sent while it was away are lost)', async () => {
    const c = replica();
    await untilLive(c);
    const state = { value: 'old', tag: 'user-2' };
    await c.get('k2', counted(state).load);
    const list = (await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
    const mine = list.split('\n').filter((line) => line.includes(`name=cache:${channel} `)).map((line) => /\bid=(\d+)/.exec(line)![1]);
    for (const id of mine) await admin.client('KILL', 'ID', id);
    state.value = 'new';
    await untilLive(c);
    expect(await c.get('k2', counted(state).load)).toBe('new');
  });
});
