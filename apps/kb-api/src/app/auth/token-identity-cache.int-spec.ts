import { randomBytes } from 'node:crypto';
import { ConfigService } from '@nestjs/config';
import Redis from 'ioredis';
import { KbConfig } from '../../config/kb-config';
import { Loaded, TOKEN_IDENTITY_TTL_MS, TokenIdentityCache } from './token-identity-cache';

/** A loader that counts its calls and answers what `state` holds at the time. */
function loader(state: { value: string | null; userId: string; validUntil?: number }) {
  const counted = {
    calls: 0,
    load: async (): Promise<Loaded<string> | null> => {
      counted.calls++;
      return state.value === null
        ? null
        : { value: state.value, userId: state.userId, validUntil: state.validUntil };
    },
  };
  return counted;
}

/** Resolves once the cache serves from memory (its subscription is live). */
async function untilLive(cache: TokenIdentityCache) {
  for (let i = 0; i < 100; i++) {
    const probe = loader({ value: 'probe', userId: 'probe' });
    await cache.get('probe', probe.load);
    await cache.get('probe', probe.load);
    if (probe.calls === 1) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('token identity cache never went live');
}

async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('TokenIdentityCache (two replicas on one Redis)', () => {
  const prefix = `kbtic-${randomBytes(4).toString('hex')}`;
  const connections: Redis[] = [];
  const replica = () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
      keyPrefix: `${prefix}:`,
    });
    connections.push(redis);
    return new TokenIdentityCache(KbConfig.of(new ConfigService({ REDIS_PREFIX: prefix })), redis);
  };
  let a: TokenIdentityCache;
  let b: TokenIdentityCache;

  beforeAll(async () => {
    a = replica();
    b = replica();
    await Promise.all([untilLive(a), untilLive(b)]);
  });

  afterAll(async () => {
    await Promise.all([a.onApplicationShutdown(), b.onApplicationShutdown()]);
    await Promise.all(connections.map((c) => c.quit()));
  });

  it('serves a loaded identity from memory and never caches a miss', async () => {
    const known = loader({ value: 'v1', userId: '1' });
    expect(await a.get('t1', known.load)).toBe('v1');
    expect(await a.get('t1', known.load)).toBe('v1');
    expect(known.calls).toBe(1);
    const unknown = loader({ value: null, userId: '1' });
    expect(await a.get('ghost', unknown.load)).toBeNull();
    expect(await a.get('ghost', unknown.load)).toBeNull();
    expect(unknown.calls).toBe(2);
  });

  it('drops every entry of the user on the changing replica before invalidateUser() returns', async () => {
    const token = { value: 'token of 2' as string | null, userId: '2' };
    const profile = { value: 'profile of 2' as string | null, userId: '2' };
    const other = loader({ value: 'token of 3', userId: '3' });
    await a.get('t2', loader(token).load);
    await a.get('me2', loader(profile).load);
    await a.get('t3', other.load);
    token.value = null;
    profile.value = 'profile of 2, changed';
    await a.invalidateUser('2');
    expect(await a.get('t2', loader(token).load)).toBeNull();
    expect(await a.get('me2', loader(profile).load)).toBe('profile of 2, changed');
    await a.get('t3', other.load);
    expect(other.calls).toBe(1);
  });

  it('drops the entries on another replica when the change arrives over Redis', async () => {
    const state = { value: 'v4' as string | null, userId: '4' };
    await b.get('t4', loader(state).load);
    state.value = null;
    await a.invalidateUser(4);
    await eventually(async () => (await b.get('t4', loader(state).load)) === null, 2000);
  });

  it('drops everything, on both replicas, for a change that may concern anyone', async () => {
    const x = { value: 'x' as string | null, userId: '5' };
    const y = { value: 'y' as string | null, userId: '6' };
    await a.get('t5', loader(x).load);
    await b.get('t6', loader(y).load);
    x.value = 'x2';
    y.value = 'y2';
    await a.invalidateEveryone();
    expect(await a.get('t5', loader(x).load)).toBe('x2');
    await eventually(async () => (await b.get('t6', loader(y).load)) === 'y2', 2000);
  });

  it('never stores a load that was in flight when a change landed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stale = a.get('t7', async () => {
      await gate;
      return { value: 'before the change', userId: '7' };
    });
    await a.invalidateUser('7');
    release();
    expect(await stale).toBe('before the change');
    const fresh = loader({ value: 'after the change', userId: '7' });
    expect(await a.get('t7', fresh.load)).toBe('after the change');
    expect(fresh.calls).toBe(1);
  });

  it('stops serving an entry at its validUntil (a token expiring before the TTL)', async () => {
    const state = { value: 'short-lived', userId: '8', validUntil: Date.now() + 150 };
    const counted = loader(state);
    await a.get('t8', counted.load);
    await a.get('t8', counted.load);
    expect(counted.calls).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    await a.get('t8', counted.load);
    expect(counted.calls).toBe(2);
  });

  it('bounds staleness by TOKEN_IDENTITY_TTL_MS when no message arrives', async () => {
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval', 'queueMicrotask'],
    });
    try {
      const state = { value: 'old' as string | null, userId: '9' };
      await a.get('t9', loader(state).load);
      state.value = 'new';
      jest.setSystemTime(Date.now() + TOKEN_IDENTITY_TTL_MS - 100);
      expect(await a.get('t9', loader(state).load)).toBe('old');
      jest.setSystemTime(Date.now() + 200);
      expect(await a.get('t9', loader(state).load)).toBe('new');
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not cache at all without a Redis client (nothing could tell it about changes)', async () => {
    const alone = new TokenIdentityCache(KbConfig.of(new ConfigService({})));
    const counted = loader({ value: 'v', userId: '10' });
    await alone.get('t10', counted.load);
    await alone.get('t10', counted.load);
    expect(counted.calls).toBe(2);
  });
});
