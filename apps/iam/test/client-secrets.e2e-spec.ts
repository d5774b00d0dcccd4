import { randomUUID } from 'node:crypto';
import { SecretHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { Clock } from '@platform/runtime';
import { ClientSecretsService } from '../src/app/management/client-secrets.service';
import { startIam } from './iam-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe('iam: client-secret lifecycle and management API', () => {
  let iam: RunningService & { issuer: string };
  let manager: string;
  let reader: string;
  let keyCounter = 0;

  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const form = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${iam.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body) });
  const tokenFor = async (id: string, secret: string) => form('/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic(id, secret) });
  const canAuthenticate = async (id: string, secret: string) => (await tokenFor(id, secret)).status === 200;
  const api = async (method: string, path: string, token: string | undefined, body?: unknown, idempotencyKey: string | null = `key-${++keyCounter}-${Date.now()}`) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (idempotencyKey && method !== 'GET') headers['idempotency-key'] = idempotencyKey;
    const r = await fetch(`${iam.url}/api/iam/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, headers: r.headers, body: (await r.json()) as Json };
  };
  const serviceManifest = (extra: Json = {}) => ({
    name: 'Billing',
    type: 'service',
    scopes: ['evidence:review'],
    auth: { client_type: 'confidential', ...extra },
  });
  const clock = () => iam.app.get(Clock);

  beforeAll(async () => {
    iam = await startIam({ IAM_OAUTH_CLIENT_SELFFETCH: 'true' });
    const hasher = iam.app.get(SecretHasher);
    const clients = iam.app.get(ClientsRepository);
    for (const [id, scopes] of [
      ['ops-admin', ['iam:clients.manage', 'iam:applications.read']],
      ['ops-reader', ['iam:applications.read']],
    ] as const) {
      await clients.upsert({ clientId: id, name: id, isConfidential: true, tokenEndpointAuthMethod: 'client_secret_basic', grantTypes: ['client_credentials'], scopes: [...scopes], secretHash: hasher.hash(`${id}-secret-0123456789`), firstParty: true });
    }
    manager = ((await (await tokenFor('ops-admin', 'ops-admin-secret-0123456789')).json()) as Json)['access_token'];
    reader = ((await (await tokenFor('ops-reader', 'ops-reader-secret-0123456789')).json()) as Json)['access_token'];
  });

  afterAll(() => iam.stop());

  it('needs an iam token (401) carrying the right permission (403)', async () => {
    expect((await api('GET', '/applications/none/client', undefined)).status).toBe(401);
    expect((await api('POST', '/applications/none/rotate-secret', reader)).status).toBe(403);
    expect((await api('GET', '/applications/none/client', reader)).status).toBe(404);
  });

  it('applies a manifest: the first apply issues the secret once, a re-apply keeps it', async () => {
    const created = await api('PUT', '/applications/billing/manifest', manager, serviceManifest());
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ application_key: 'billing', client_id: 'cli_billing', created: true });
    const secret = created.body.data.client_secret as string;
    expect(secret).toMatch(/^ics_/);
    expect(await canAuthenticate('cli_billing', secret)).toBe(true);
    const again = await api('PUT', '/applications/billing/manifest', manager, serviceManifest({ auto_rotate: false }));
    expect(again.status).toBe(200);
    expect(again.body.data.client_secret).toBeUndefined();
    expect(await canAuthenticate('cli_billing', secret)).toBe(true);
  });

  it('refuses an invalid manifest with every problem named, and writes nothing', async () => {
    const r = await api('PUT', '/applications/broken/manifest', manager, { name: 'X', type: 'web', scopes: ['nope'], auth: { client_type: 'public', token_endpoint_auth_method: 'client_secret_basic' } });
    expect(r.status).toBe(422);
    const fields = (r.body['errors'] as Array<{ field: string }>).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['auth.token_endpoint_auth_method', 'auth.redirect_uris', 'scopes']));
    expect((await api('GET', '/applications/broken/client', reader)).status).toBe(404);
  });

  it('refuses redirect URIs with a fragment or user info (RFC 6749 §3.1.2) with 422 naming auth.redirect_uris, as /oauth/register does', async () => {
    const web = (redirect_uris: unknown[]) => ({ name: 'Web', type: 'web', scopes: ['openid'], auth: { client_type: 'public', redirect_uris } });
    for (const [uris, message] of [
      [['http://127.0.0.1:9999/cb#frag'], 'redirect_uris.0: http://127.0.0.1:9999/cb#frag must not contain a fragment'],
      [['https://app.example/cb', 'https://app.example/cb#'], 'redirect_uris.1: https://app.example/cb# must not contain a fragment'],
      [['http://user:pw@host.example/cb'], 'redirect_uris.0: http://user:pw@host.example/cb must not contain user info'],
      [['https://good.example@evil.example/cb'], 'redirect_uris.0: https://good.example@evil.example/cb must not contain user info'],
    ] as const) {
      const r = await api('PUT', '/applications/fragmented/manifest', manager, web([...uris]));
      expect({ uris, status: r.status }).toEqual({ uris, status: 422 });
      expect(r.body['errors']).toEqual(expect.arrayContaining([{ field: 'auth.redirect_uris', message }]));
    }
    expect((await api('GET', '/applications/fragmented/client', reader)).status).toBe(404);
    // Plain http on any host stays an administrator's choice; a path may hold an @.
    const ok = await api('PUT', '/applications/fragmented/manifest', manager, web(['http://app.internal:8080/cb', 'https://app.example/users/@me/cb']));
    expect(ok.status).toBe(201);
  });

  it('refuses a manifest whose auth is missing or not an object with 422 naming auth', async () => {
    const { auth: _auth, ...withoutAuth } = serviceManifest();
    for (const manifest of [withoutAuth, { ...withoutAuth, auth: [] }, { ...withoutAuth, auth: null }, { ...withoutAuth, auth: 'confidential' }, { ...withoutAuth, auth: [{ client_type: 'confidential' }] }]) {
      const r = await api('PUT', '/applications/shapeless/manifest', manager, manifest);
      expect({ manifest, status: r.status }).toEqual({ manifest, status: 422 });
      expect(r.body['errors']).toEqual(expect.arrayContaining([{ field: 'auth', message: 'auth must be an object' }]));
    }
    expect((await api('GET', '/applications/shapeless/client', reader)).status).toBe(404);
  });

  it('refuses a lone UTF-16 surrogate anywhere in the manifest with 422 naming the field, and takes a paired one', async () => {
    const raw = async (text: string) => {
      const r = await fetch(`${iam.url}/api/iam/v1/applications/surrogate/manifest`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${manager}`, 'idempotency-key': `surrogate-${++keyCounter}` },
        body: text,
      });
      return { status: r.status, body: (await r.json()) as Json };
    };
    const manifest = (name: string, redirect = 'http://127.0.0.1:5000/cb') =>
      `{"name":"${name}","type":"web","scopes":["openid"],"auth":{"client_type":"public","redirect_uris":["${redirect}"]}}`;
    for (const [text, field] of [
      [manifest('\\ud800'), 'body.name'],
      [manifest('x\\udc00y'), 'body.name'],
      [manifest('x\\ude00\\ud83d'), 'body.name'],
      [manifest('x', 'http://127.0.0.1/\\ud800'), 'body.auth.redirect_uris.0'],
    ]) {
      const r = await raw(text);
      expect({ text, status: r.status, errors: r.body['errors'] }).toEqual({ text, status: 422, errors: [{ field, message: expect.stringContaining('valid Unicode') }] });
    }
    expect((await api('GET', '/applications/surrogate/client', reader)).status).toBe(404);
    const paired = await raw(manifest('Smile \\ud83d\\ude00'));
    expect(paired.status).toBe(201);
    const [row] = await iam.app.get(DataSource).query(`SELECT name FROM iam_applications WHERE key = 'surrogate'`);
    expect(row.name).toBe('Smile \u{1F600}');
  });

  it('takes for private_key_jwt only a JWKS of importable public ES256 keys, naming the problem (422) otherwise', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pub = { ...(await exportJWK(publicKey)), kid: 'k1' };
    const priv = { ...(await exportJWK(privateKey)), kid: 'k1' };
    const rsa = await exportJWK((await generateKeyPair('RS256', { extractable: true })).publicKey);
    const pkjwt = (jwks: unknown) => serviceManifest({ token_endpoint_auth_method: 'private_key_jwt', jwks });
    for (const [jwks, message] of [
      [{ keys: 'abc' }, 'jwks keys must be a non-empty array of public JWKs'],
      [{ keys: [] }, 'jwks keys must be a non-empty array of public JWKs'],
      [{}, 'jwks keys must be a non-empty array of public JWKs'],
      [[pub], 'jwks must be an object with keys'],
      [{ keys: ['abc'] }, 'jwks keys.0 must be a JWK object'],
      [{ keys: [{ kty: 'zzz' }] }, 'jwks keys.0 must be an EC P-256 key (kty EC, crv P-256): assertions are ES256'],
      [{ keys: [pub, rsa] }, 'jwks keys.1 must be an EC P-256 key (kty EC, crv P-256): assertions are ES256'],
      [{ keys: [priv] }, 'jwks keys.0 must be a public key (remove d)'],
      [{ keys: [{ ...pub, alg: 'RS256' }] }, 'jwks keys.0.alg must be ES256'],
      [{ keys: [{ ...pub, use: 'enc' }] }, 'jwks keys.0.use must be sig'],
      [{ keys: [{ ...pub, x: 'AAAA' }] }, expect.stringMatching(/^jwks keys\.0 cannot be imported as an ES256 public key: /)],
      [{ keys: Array.from({ length: 21 }, () => pub) }, 'jwks keys must hold at most 20 keys'],
    ] as const) {
      const r = await api('PUT', '/applications/keyless/manifest', manager, pkjwt(jwks));
      expect({ jwks, status: r.status, errors: r.body['errors'] }).toEqual({ jwks, status: 422, errors: [{ field: 'auth.jwks', message }] });
    }
    expect((await api('GET', '/applications/keyless/client', reader)).status).toBe(404);

    // A JWKS that passes authenticates its client.
    const applied = await api('PUT', '/applications/keyed/manifest', manager, pkjwt({ keys: [{ ...pub, alg: 'ES256', use: 'sig' }] }));
    expect(applied.status).toBe(201);
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('cli_keyed')
      .setSubject('cli_keyed')
      .setAudience(`${iam.issuer}/oauth/token`)
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(privateKey);
    const r = await form('/oauth/token', { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion });
    expect(r.status).toBe(200);
  });

  describe('idempotency', () => {
    it('requires the header on writes', async () => {
      const r = await api('POST', '/applications/billing/rotate-secret', manager, undefined, null);
      expect(r.status).toBe(422);
      expect(r.body['code']).toBe('idempotency_key_required');
    });

    it('replays the first answer (the same secret) and refuses the key for another request', async () => {
      await api('PUT', '/applications/replayed/manifest', manager, serviceManifest());
      const first = await api('POST', '/applications/replayed/rotate-secret', manager, undefined, 'rotate-replayed-1');
      expect(first.status).toBe(200);
      const second = await api('POST', '/applications/replayed/rotate-secret', manager, undefined, 'rotate-replayed-1');
      expect(second.status).toBe(200);
      expect(second.headers.get('idempotency-replayed')).toBe('true');
      expect(second.body.data.client_secret).toBe(first.body.data.client_secret);
      const other = await api('POST', '/applications/billing/rotate-secret', manager, undefined, 'rotate-replayed-1');
      expect(other.status).toBe(422);
      expect(other.body['code']).toBe('idempotency_key_reused');
    });
  });

  describe('rotation with a grace window', () => {
    it('keeps both secrets valid during grace, cuts only the previous one when it ends', async () => {
      const applied = await api('PUT', '/applications/grace/manifest', manager, serviceManifest());
      const oldSecret = applied.body.data.client_secret as string;
      const rotated = await api('POST', '/applications/grace/rotate-secret', manager);
      expect(rotated.status).toBe(200);
      const { client_id, client_secret, grace_until } = rotated.body.data;
      expect(client_id).toBe('cli_grace');
      expect(new Date(grace_until).getTime() - clock().now().getTime()).toBeGreaterThan(72 * HOUR - 5000);
      expect(await canAuthenticate('cli_grace', oldSecret)).toBe(true);
      expect(await canAuthenticate('cli_grace', client_secret)).toBe(true);
      const status = await api('GET', '/applications/grace/client', reader);
      expect(status.body.data).toMatchObject({ grace_active: true, grace_until, secret_status: 'ok', uses_private_key_jwt: false });
      expect(status.body.data).not.toHaveProperty('secret_expires_at');

      expect((await api('POST', '/applications/grace/rotate-secret', manager)).status).toBe(409);
      clock().advance(72 * HOUR + 60_000);
      expect(await canAuthenticate('cli_grace', oldSecret)).toBe(false);
      expect(await canAuthenticate('cli_grace', client_secret)).toBe(true);
      expect((await api('POST', '/applications/grace/rotate-secret', manager)).status).toBe(200);
    });

    it('lets only one of two concurrent rotations through', async () => {
      await api('PUT', '/applications/racy/manifest', manager, serviceManifest());
      const results = await Promise.all([api('POST', '/applications/racy/rotate-secret', manager), api('POST', '/applications/racy/rotate-secret', manager)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    });

    it('never fails a live client through rotate → deploy the new secret → grace end', async () => {
      const applied = await api('PUT', '/applications/live/manifest', manager, serviceManifest());
      let current = applied.body.data.client_secret as string;
      let failures = 0;
      let requests = 0;
      const step = async () => {
        for (let i = 0; i < 10; i++, requests++) if (!(await canAuthenticate('cli_live', current))) failures++;
      };
      await step();
      const rotated = await api('POST', '/applications/live/rotate-secret', manager);
      await step(); // still on the old secret
      current = rotated.body.data.client_secret; // the new secret is deployed
      await step();
      clock().advance(72 * HOUR + 60_000); // grace ends
      await step();
      expect(requests).toBe(40);
      expect(failures).toBe(0);
    });

    it('drops every secret, the previous one and its grace included, when a client turns public, so none revives later', async () => {
      const web = (auth: Json) => ({ name: 'Flipper', type: 'web', scopes: ['openid'], auth: { redirect_uris: ['http://127.0.0.1:5000/cb'], ...auth } });
      // Revocation answers 200 to an authenticated client whatever its grant types, 401 otherwise.
      const authenticates = async (secret: string) => (await form('/oauth/revoke', { token: 'x' }, { authorization: basic('cli_flipper', secret) })).status === 200;
      const s1 = (await api('PUT', '/applications/flipper/manifest', manager, web({ client_type: 'confidential' }))).body.data.client_secret as string;
      const s2 = (await api('POST', '/applications/flipper/rotate-secret', manager)).body.data.client_secret as string;
      expect([await authenticates(s1), await authenticates(s2)]).toEqual([true, true]);

      expect((await api('PUT', '/applications/flipper/manifest', manager, web({ client_type: 'public' }))).status).toBe(200);
      expect((await api('GET', '/applications/flipper/client', reader)).body.data).toMatchObject({ secret_status: 'public', grace_active: false, grace_until: null });
      expect([await authenticates(s1), await authenticates(s2)]).toEqual([false, false]);

      const back = await api('PUT', '/applications/flipper/manifest', manager, web({ client_type: 'confidential' }));
      const s3 = back.body.data.client_secret as string;
      expect(s3).toMatch(/^ics_/);
      expect([await authenticates(s1), await authenticates(s2), await authenticates(s3)]).toEqual([false, false, true]);
      expect((await api('GET', '/applications/flipper/client', reader)).body.data).toMatchObject({ secret_status: 'ok', grace_active: false });
    });

    it('refuses to rotate public and private_key_jwt clients (422)', async () => {
      await api('PUT', '/applications/spa-app/manifest', manager, { name: 'SPA', type: 'spa', scopes: ['openid'], auth: { client_type: 'public', redirect_uris: ['http://127.0.0.1:5000/cb'] } });
      expect((await api('POST', '/applications/spa-app/rotate-secret', manager)).status).toBe(422);
      expect((await api('GET', '/applications/spa-app/client', reader)).body.data.secret_status).toBe('public');
    });
  });

  describe('revocation', () => {
    it('ends all authentication of the client at once', async () => {
      const applied = await api('PUT', '/applications/doomed/manifest', manager, serviceManifest());
      const secret = applied.body.data.client_secret as string;
      const token = ((await (await tokenFor('cli_doomed', secret)).json()) as Json)['access_token'];
      const introspect = async () =>
        ((await (await form('/oauth/introspect', { token }, { authorization: basic('ops-admin', 'ops-admin-secret-0123456789') })).json()) as Json)['active'];
      expect(await introspect()).toBe(true);

      const revoked = await api('POST', '/applications/doomed/revoke-client', manager);
      expect(revoked.status).toBe(200);
      expect(revoked.body.data).toMatchObject({ client_id: 'cli_doomed', revoked: true });
      expect(await canAuthenticate('cli_doomed', secret)).toBe(false);
      expect(await introspect()).toBe(false);
      expect((await form('/oauth/client-secret', {}, { authorization: basic('cli_doomed', secret) })).status).toBe(401);
      expect((await api('GET', '/applications/doomed/client', reader)).body.data.secret_status).toBe('revoked');
      expect((await api('POST', '/applications/doomed/revoke-client', manager)).status).toBe(409);
      expect((await api('POST', '/applications/doomed/rotate-secret', manager)).status).toBe(409);
    });
  });

  describe('automatic rotation and self-fetch', () => {
    it('rotates a due client once, keeps the old secret in grace, and hands the new one out exactly once', async () => {
      const applied = await api('PUT', '/applications/auto/manifest', manager, serviceManifest({ auto_rotate: true, rotate_interval_days: 30 }));
      const oldSecret = applied.body.data.client_secret as string;
      const status = await api('GET', '/applications/auto/client', reader);
      expect(status.body.data).toMatchObject({ auto_rotate: true, rotate_interval_days: 30 });
      const secrets = iam.app.get(ClientSecretsService);
      expect((await secrets.rotateDue()).rotated).not.toContain('cli_auto');
      expect(await (await form('/oauth/client-secret', {}, { authorization: basic('cli_auto', oldSecret) })).json()).toEqual({ rotated: false });

      clock().advance(31 * DAY);
      const runs = await Promise.all([secrets.rotateDue(), secrets.rotateDue(), secrets.rotateDue()]);
      expect(runs.flatMap((r) => r.rotated).filter((id) => id === 'cli_auto')).toHaveLength(1);
      expect(await canAuthenticate('cli_auto', oldSecret)).toBe(true);

      const fetched = await form('/oauth/client-secret', {}, { authorization: basic('cli_auto', oldSecret) });
      expect(fetched.headers.get('cache-control')).toBe('no-store');
      const pickup = (await fetched.json()) as Json;
      expect(pickup).toMatchObject({ rotated: true, client_id: 'cli_auto' });
      expect(await canAuthenticate('cli_auto', pickup['client_secret'])).toBe(true);
      expect(await (await form('/oauth/client-secret', {}, { authorization: basic('cli_auto', pickup['client_secret']) })).json()).toEqual({ rotated: false });
    });

    it('clears a pickup nobody fetched once its grace has lapsed', async () => {
      await api('PUT', '/applications/absent/manifest', manager, serviceManifest({ auto_rotate: true, rotate_interval_days: 30 }));
      const secrets = iam.app.get(ClientSecretsService);
      const pending = async () =>
        (await iam.app.get(DataSource).query("SELECT secret_pending_encrypted FROM oauth_clients WHERE client_id = 'cli_absent'"))[0].secret_pending_encrypted;
      clock().advance(31 * DAY);
      expect((await secrets.rotateDue()).rotated).toContain('cli_absent');
      expect(await pending()).toMatch(/^e1\./);
      clock().advance(72 * HOUR + 60_000);
      const r = await secrets.rotateDue();
      expect(r.rotated).not.toContain('cli_absent');
      expect(r.pending_cleared).toBeGreaterThanOrEqual(1);
      expect(await pending()).toBeNull();
    });
  });

  it('audits every management action with its actor and never a secret', async () => {
    const rows: Array<{ actor: string; action: string; details: Json }> = await iam.app
      .get(DataSource)
      .query('SELECT actor, action, client_id, details FROM iam_audit_log ORDER BY id');
    expect(rows.map((r) => r.action)).toEqual(expect.arrayContaining(['application.created', 'client.secret_rotated', 'client.revoked', 'client.secret_auto_rotated', 'client.secret_picked_up']));
    expect(rows.find((r) => r.action === 'client.revoked')!.actor).toBe('ops-admin');
    expect(JSON.stringify(rows)).not.toMatch(/ics_[0-9A-Za-z]{20}/);
  });
});
