import { SecretHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { SigningKeysService } from '../src/app/keys/signing-keys.service';
import { Clock } from '@platform/runtime';
import { startIam } from './iam-test-env';

describe('iam: rate limit and concurrent key rotation', () => {
  let iam: RunningService & { issuer: string };

  beforeAll(async () => {
    iam = await startIam({ OAUTH_RATE_LIMIT: '5' });
    await iam.app.get(ClientsRepository).upsert({
      clientId: 'rl-client',
      name: 'Rate limited',
      isConfidential: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['client_credentials'],
      scopes: ['kb:read'],
      secretHash: iam.app.get(SecretHasher).hash('rl-secret-0123456789abcdef'),
    });
  });

  afterAll(() => iam.stop());

  it('answers 429 with Retry-After once a client IP passes oauth.rate_limit per minute', async () => {
    const statuses: number[] = [];
    let first: Response | undefined;
    let last: Response | undefined;
    for (let i = 0; i < 7; i++) {
      // The first is a good client's request (200), the others carry no client (401).
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
      if (i === 0) headers['authorization'] = `Basic ${Buffer.from('rl-client:rl-secret-0123456789abcdef').toString('base64')}`;
      last = await fetch(`${iam.url}/oauth/token`, {
        method: 'POST',
        headers,
        body: 'grant_type=client_credentials',
      });
      first ??= last;
      statuses.push(last.status);
    }
    // Every answer of the group carries the draft RateLimit headers, the refused one included.
    expect(first!.status).toBe(200);
    expect(first!.headers.get('ratelimit-policy')).toBe('"oauth";q=5;w=60');
    const [, remaining, reset] = /^"oauth";r=(\d+);t=(\d+)$/.exec(first!.headers.get('ratelimit') ?? '') ?? [];
    expect(Number(remaining)).toBeLessThanOrEqual(4);
    expect(Number(reset)).toBeLessThanOrEqual(60);
    expect(last!.headers.get('ratelimit-policy')).toBe('"oauth";q=5;w=60');
    expect(last!.headers.get('ratelimit')).toMatch(/^"oauth";r=0;t=\d+$/);
    // The window may roll over mid-test; at least the sixth and seventh of one window are refused.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    const limited = statuses.indexOf(429);
    expect(statuses.slice(1, limited).every((s) => s === 401)).toBe(true);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('5');
    expect(await last!.json()).toMatchObject({ error: 'rate_limited' });
    // The authorize route shares the group's budget and headers.
    const authorize = await fetch(`${iam.url}/oauth/authorize?response_type=code&client_id=nobody`, { redirect: 'manual' });
    expect(authorize.status).toBe(429);
    expect(authorize.headers.get('ratelimit-policy')).toBe('"oauth";q=5;w=60');
    expect(authorize.headers.get('ratelimit')).toMatch(/^"oauth";r=0;t=\d+$/);
    expect(Number(authorize.headers.get('retry-after'))).toBeGreaterThan(0);
    // So does userinfo, with or without a token.
    for (const method of ['GET', 'POST']) {
      const userinfo = await fetch(`${iam.url}/oauth/userinfo`, { method, headers: { authorization: 'Bearer x.y.z' } });
      expect({ method, status: userinfo.status }).toEqual({ method, status: 429 });
      expect(userinfo.headers.get('ratelimit-policy')).toBe('"oauth";q=5;w=60');
      expect(userinfo.headers.get('ratelimit')).toMatch(/^"oauth";r=0;t=\d+$/);
      expect(userinfo.headers.get('x-ratelimit-limit')).toBe('5');
      expect(Number(userinfo.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Discovery and JWKS stay reachable for verifiers.
    expect((await fetch(`${iam.url}/.well-known/jwks.json`)).status).toBe(200);
  });

  it('rotates exactly once when many replicas or jobs try at the same time', async () => {
    const keys = iam.app.get(SigningKeysService);
    iam.app.get(Clock).advance(301_000);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => keys.rotate({ force: true })));
    expect(outcomes.filter((o) => o.outcome === 'rotated')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'waiting_for_propagation')).toHaveLength(5);
    const states = (await fetch(`${iam.url}/.well-known/jwks.json`).then((r) => r.json())) as { keys: unknown[] };
    expect(states.keys).toHaveLength(3);
  });
});
