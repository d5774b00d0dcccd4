import { randomBytes } from 'node:crypto';
import { IamConfig } from '../../config/iam-config';
import Redis from 'ioredis';
import { CLIENT_CACHE_TTL_MS, ClientCache } from './client-cache';
import { OAuthClient } from './oauth-client.entity';

const row = (clientId: string, revoked = false): OAuthClient => Object.assign(new OAuthClient(), { clientId, revokedAt: revoked ? new Date() : null });

/** Resolves once the cache serves from memory (its subscription is live). */
async function untilLive(cache: ClientCache) {
  for (let i = 0; i < 100; i++) {
    let loads = 0;
    await cache.get('probe', async () => (loads++, row('probe')));
    await cache.get('probe', async () => (loads++, row('probe')));
    if (loads === 1) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('client cache never went live');
}

describe('ClientCache (two replicas on one Redis)', () => {
  const prefix = `cc-${randomBytes(4).toString('hex')}`;
  const connections: Redis[] = [];
  const replica = () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { keyPrefix: `${prefix}:` });
    connections.push(redis);
    return new ClientCache(IamConfig.fromEnv({ REDIS_PREFIX: prefix }), redis);
  };
  let a: ClientCache;
  let b: ClientCache;

  beforeAll(async () => {
    a = replica();
    b = replica();
    await Promise.all([untilLive(a), untilLive(b)]);
  });

  afterAll(async () => {
    await Promise.all([a.onApplicationShutdown(), b.onApplicationShutdown()]);
    await Promise.all(connections.map((c) => c.quit()));
  });

  it('serves a loaded client from memory and never caches an unknown one', async () => {
    let loads = 0;
    const load = async () => (loads++, row('c1'));
    await a.get('c1', load);
    expect(await a.get('c1', load)).toMatchObject({ clientId: 'c1' });
    expect(loads).toBe(1);
    let misses = 0;
    await a.get('ghost', async () => (misses++, null));
    await a.get('ghost', async () => (misses++, null));
    expect(misses).toBe(2);
  });

  it('drops the entry on the changing replica before invalidate() returns', async () => {
    let revoked = false;
    const load = async () => row('c2', revoked);
    expect((await a.get('c2', load))?.revokedAt).toBeNull();
    revoked = true;
    await a.invalidate('c2');
    expect((await a.get('c2', load))?.revokedAt).toBeInstanceOf(Date);
  });

  it('does not keep a row whose load was in flight when a change landed', async () => {
    let release!: (c: OAuthClient) => void;
    const slow = a.get('c3', () => new Promise<OAuthClient>((r) => (release = r)));
    await a.invalidate('c3');
    release(row('c3'));
    await slow;
    let loads = 0;
    await a.get('c3', async () => (loads++, row('c3', true)));
    expect(loads).toBe(1);
  });

  it('tells the other replicas, which reload on their next request', async () => {
    let revoked = false;
    const load = async () => row('c4', revoked);
    await b.get('c4', load);
    expect((await b.get('c4', load))?.revokedAt).toBeNull();
    revoked = true;
    await a.invalidate('c4');
    let seen: Date | null | undefined = null;
    const deadline = Date.now() + CLIENT_CACHE_TTL_MS;
    while (!seen && Date.now() < deadline) {
      seen = (await b.get('c4', load))?.revokedAt;
      if (!seen) await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen).toBeInstanceOf(Date);
  });

  it('reads through to the store while its subscription is down', async () => {
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
    connections.push(redis);
    const offline = new ClientCache(IamConfig.fromEnv({ REDIS_PREFIX: prefix }), redis);
    let loads = 0;
    // The duplicate connection has not subscribed yet: nothing may be served from memory.
    await offline.get('c5', async () => (loads++, row('c5')));
    await offline.get('c5', async () => (loads++, row('c5')));
    expect(loads).toBe(2);
    await offline.onApplicationShutdown();
  });

  it('publishes from a process without the shared client (the CLI) over a connection of its own', async () => {
    const cli = new ClientCache(IamConfig.fromEnv({ REDIS_PREFIX: prefix, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }));
    let loads = 0;
    await cli.get('c6', async () => (loads++, row('c6')));
    await cli.get('c6', async () => (loads++, row('c6')));
    expect(loads).toBe(2);
    let revoked = false;
    const load = async () => row('c6', revoked);
    await b.get('c6', load);
    revoked = true;
    await cli.invalidate('c6');
    let seen: Date | null | undefined = null;
    const deadline = Date.now() + CLIENT_CACHE_TTL_MS;
    while (!seen && Date.now() < deadline) {
      seen = (await b.get('c6', load))?.revokedAt;
      if (!seen) await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen).toBeInstanceOf(Date);
    await cli.onApplicationShutdown();
  });
});
