import { RunningService } from '@platform/testing';
import { SigningKeysService } from '../src/app/keys/signing-keys.service';
import { Clock } from '../src/app/clock';
import { startIam } from './iam-test-env';

describe('iam: rate limit and concurrent key rotation', () => {
  let iam: RunningService & { issuer: string };

  beforeAll(async () => {
    iam = await startIam({ OAUTH_RATE_LIMIT: '5' });
  });

  afterAll(() => iam.stop());

  it('answers 429 with Retry-After once a client IP passes oauth.rate_limit per minute', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 7; i++) {
      last = await fetch(`${iam.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      });
      statuses.push(last.status);
    }
    // The window may roll over mid-test; at least the sixth and seventh of one window are refused.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    const limited = statuses.indexOf(429);
    expect(statuses.slice(0, limited).every((s) => s === 401)).toBe(true);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('5');
    expect(await last!.json()).toMatchObject({ error: 'rate_limited' });
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
