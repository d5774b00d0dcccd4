import { SecretHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { Clock } from '@platform/runtime';
import { IdempotencyService } from '../src/app/management/idempotency.service';
import { startIam } from './iam-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const DAY = 24 * 3600_000;

describe('iam: soft secret expiry, self-fetch switched off, idempotency in flight', () => {
  let iam: RunningService & { issuer: string };
  let manager: string;
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const token = (id: string, secret: string) =>
    fetch(`${iam.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(id, secret) }, body: 'grant_type=client_credentials' });
  const api = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${iam.url}/api/iam/v1${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${manager}`, 'idempotency-key': `k-${Math.random().toString(36).slice(2)}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Json };
  };

  beforeAll(async () => {
    iam = await startIam({ IAM_OAUTH_CLIENT_SECRET_TTL: String(30 * 86400), IAM_OAUTH_CLIENT_SECRET_WARN_DAYS: '14' });
    await iam.app.get(ClientsRepository).upsert({
      clientId: 'ops',
      name: 'ops',
      isConfidential: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['client_credentials'],
      scopes: ['iam:clients.manage', 'iam:applications.read'],
      secretHash: iam.app.get(SecretHasher).hash('ops-secret-0123456789'),
    });
    manager = ((await (await token('ops', 'ops-secret-0123456789')).json()) as Json)['access_token'];
  });

  afterAll(() => iam.stop());

  it('reports expiring then expired while the secret keeps working (expiry is soft)', async () => {
    const applied = await api('PUT', '/applications/ttl/manifest', { name: 'TTL', type: 'service', scopes: [], auth: { client_type: 'confidential' } });
    const secret = applied.body.data.client_secret as string;
    const status = async () => (await api('GET', '/applications/ttl/client')).body.data;
    const fresh = await status();
    expect(fresh.secret_status).toBe('ok');
    expect(new Date(fresh.secret_expires_at).getTime() - Date.now()).toBeGreaterThan(29 * DAY);
    const gauge = async (s: string) => Number(new RegExp(`^iam_client_secrets\\{status="${s}"[^}]*\\} (\\d+)`, 'm').exec(await (await fetch(`${iam.url}/metrics`)).text())?.[1]);
    expect(await gauge('expiring')).toBe(0);
    iam.app.get(Clock).advance(20 * DAY);
    expect((await status()).secret_status).toBe('expiring');
    expect(await gauge('expiring')).toBe(1); // what the "client secrets expiring" alert watches
    iam.app.get(Clock).advance(11 * DAY);
    expect((await status()).secret_status).toBe('expired');
    expect([await gauge('expiring'), await gauge('expired')]).toEqual([0, 1]);
    expect((await token('cli_ttl', secret)).status).toBe(200);
  });

  it('answers 404 on self-fetch while IAM_OAUTH_CLIENT_SELFFETCH is off', async () => {
    const r = await fetch(`${iam.url}/oauth/client-secret`, { method: 'POST', headers: { authorization: basic('ops', 'ops-secret-0123456789') } });
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ error: 'not_found' });
  });

  it('answers 409 for a key whose first request is still running, then replays its answer', async () => {
    const idempotency = iam.app.get(IdempotencyService);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = idempotency.run('actor-1', 'slow-key-123', 'POST|/x|{}', async () => {
      await gate;
      return { status: 200, body: { data: 'done' } };
    });
    await new Promise((r) => setTimeout(r, 20));
    await expect(idempotency.run('actor-1', 'slow-key-123', 'POST|/x|{}', async () => ({ status: 200, body: {} }))).rejects.toMatchObject({ status: 409 });
    // Keys are per actor: another caller may use the same key.
    await expect(idempotency.run('actor-2', 'slow-key-123', 'POST|/x|{}', async () => ({ status: 200, body: { mine: true } }))).resolves.toMatchObject({ replayed: false });
    release();
    expect(await first).toMatchObject({ status: 200, replayed: false });
    expect(await idempotency.run('actor-1', 'slow-key-123', 'POST|/x|{}', async () => ({ status: 500, body: {} }))).toEqual({ status: 200, body: { data: 'done' }, replayed: true });
  });
});
