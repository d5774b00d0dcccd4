import { randomUUID } from 'node:crypto';
import { JwtVerifier } from '@platform/auth';
import { SecretHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import { exportJWK, generateKeyPair, SignJWT, CryptoKey } from 'jose';
import * as oidc from 'openid-client';
import { DataSource } from 'typeorm';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { Clock } from '@platform/runtime';
import { SigningKeysService } from '../src/app/keys/signing-keys.service';
import { startIam } from './iam-test-env';

/** Response bodies of the OAuth endpoints are flat string maps. */
const body = async (r: Response) => (await r.json()) as Record<string, string>;
const jwksKids = async (url: string) =>
  ((await (await fetch(`${url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);

const SECRET = 'service-a-secret-0123456789abcdef';

describe('iam: client_credentials, private_key_jwt, discovery and signing keys', () => {
  let iam: RunningService & { issuer: string };
  let pkjwtKey: { privateKey: CryptoKey; kid: string };

  const form = (body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${iam.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(body),
    });
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

  beforeAll(async () => {
    iam = await startIam();
    const clients = iam.app.get(ClientsRepository);
    const hasher = iam.app.get(SecretHasher);
    await clients.upsert({
      clientId: 'service-a',
      name: 'Service A',
      isConfidential: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['client_credentials'],
      scopes: ['evidence:review', 'guardrails:admin'],
      secretHash: hasher.hash(SECRET),
    });
    await clients.upsert({
      clientId: 'spa',
      name: 'SPA',
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code'],
      redirectUris: ['http://127.0.0.1/cb'],
      scopes: ['openid'],
    });
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const kid = 'pk1';
    pkjwtKey = { privateKey, kid };
    await clients.upsert({
      clientId: 'service-pk',
      name: 'Service using private_key_jwt',
      isConfidential: true,
      tokenEndpointAuthMethod: 'private_key_jwt',
      grantTypes: ['client_credentials'],
      scopes: ['evidence:review'],
      jwks: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] },
    });
  });

  afterAll(() => iam.stop());

  describe('discovery and JWKS', () => {
    it('serves the same metadata at both well-known URLs', async () => {
      const a = await fetch(`${iam.url}/.well-known/openid-configuration`);
      const b = await fetch(`${iam.url}/.well-known/oauth-authorization-server`);
      expect(a.headers.get('cache-control')).toBe('public, max-age=300');
      const doc = await a.json();
      expect(await body(b)).toEqual(doc);
      expect(doc).toMatchObject({
        issuer: iam.issuer,
        token_endpoint: `${iam.issuer}/oauth/token`,
        jwks_uri: `${iam.issuer}/.well-known/jwks.json`,
        code_challenge_methods_supported: ['S256'],
        id_token_signing_alg_values_supported: ['ES256'],
      });
    });

    it('publishes the active and the next key, public parts only, with a cache lifetime', async () => {
      const r = await fetch(`${iam.url}/.well-known/jwks.json`);
      expect(r.headers.get('cache-control')).toBe('public, max-age=300');
      const { keys } = (await r.json()) as { keys: Array<Record<string, unknown>> };
      expect(keys).toHaveLength(2);
      for (const k of keys) {
        expect(k).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
        expect(k['kid']).toMatch(/^sk_[0-9a-f]{16}$/);
        expect(k).not.toHaveProperty('d');
      }
    });
  });

  describe('client_credentials with the certified openid-client', () => {
    it('issues an RFC 9068 access token via client_secret_basic that verifies offline', async () => {
      const config = await oidc.discovery(new URL(iam.issuer), 'service-a', undefined, oidc.ClientSecretBasic(SECRET), {
        execute: [oidc.allowInsecureRequests],
      });
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'evidence:review' });
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.expires_in).toBe(900);
      const verifier = new JwtVerifier({ jwksUrl: `${iam.url}/.well-known/jwks.json`, issuer: iam.issuer, audience: 'platform', typ: 'at+jwt' });
      const { payload } = await verifier.verify(tokens.access_token);
      expect(payload).toMatchObject({ iss: iam.issuer, sub: 'service-a', client_id: 'service-a', aud: 'platform', scope: 'evidence:review' });
      expect(typeof payload.jti).toBe('string');
      expect(payload.exp! - payload.iat!).toBe(900);
    });

    it('accepts client_secret_post too, and answers no-store', async () => {
      const r = await form({ grant_type: 'client_credentials', client_id: 'service-a', client_secret: SECRET });
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(r.headers.get('pragma')).toBe('no-cache');
      expect((await body(r)).scope).toBe('evidence:review guardrails:admin');
    });

    it('drops scopes the client may not have and refuses unknown ones', async () => {
      const narrowed = await form({ grant_type: 'client_credentials', scope: 'evidence:review kb:read' }, { authorization: basic('service-a', SECRET) });
      expect((await body(narrowed)).scope).toBe('evidence:review');
      const unknown = await form({ grant_type: 'client_credentials', scope: 'admin:everything' }, { authorization: basic('service-a', SECRET) });
      expect(unknown.status).toBe(400);
      expect(await body(unknown)).toMatchObject({ error: 'invalid_scope' });
    });

    it('refuses a wrong secret, an unknown client and a missing authentication with 401 invalid_client', async () => {
      const wrong = await form({ grant_type: 'client_credentials' }, { authorization: basic('service-a', 'nope') });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBe('Basic realm="OAuth"');
      expect(await body(wrong)).toEqual({ error: 'invalid_client', error_description: 'client authentication failed' });
      const unknown = await form({ grant_type: 'client_credentials', client_id: 'ghost', client_secret: 'x' });
      expect(unknown.status).toBe(401);
      const none = await form({ grant_type: 'client_credentials' });
      expect(none.status).toBe(401);
    });

    it('refuses public clients, unsupported grants and malformed requests', async () => {
      const pub = await form({ grant_type: 'client_credentials', client_id: 'spa' });
      expect(pub.status).toBe(400);
      expect((await body(pub)).error).toBe('unauthorized_client');
      const grant = await form({ grant_type: 'password', client_id: 'spa' });
      expect((await body(grant)).error).toBe('unsupported_grant_type');
      const json = await fetch(`${iam.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(json.status).toBe(400);
      expect((await body(json)).error).toBe('invalid_request');
      const twoMethods = await form({ grant_type: 'client_credentials', client_id: 'service-a', client_secret: SECRET }, { authorization: basic('service-a', SECRET) });
      expect((await body(twoMethods)).error).toBe('invalid_request');
    });

    it('stores only a keyed hash of the secret', async () => {
      const row = await iam.app.get(ClientsRepository).findByClientId('service-a');
      expect(row!.secretHash).toMatch(/^h1\.p1\./);
      expect(JSON.stringify(row)).not.toContain(SECRET);
    });
  });

  describe('private_key_jwt', () => {
    const assertion = (claims: Record<string, unknown> = {}, alg = 'ES256', key: CryptoKey | Uint8Array = pkjwtKey.privateKey) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ jti: randomUUID(), ...claims })
        .setProtectedHeader({ alg, kid: pkjwtKey.kid })
        .setIssuer('service-pk')
        .setSubject('service-pk')
        .setAudience((claims['aud'] as string) ?? `${iam.issuer}/oauth/token`)
        .setIssuedAt((claims['iat'] as number) ?? now)
        .setExpirationTime((claims['exp'] as number) ?? now + 60)
        .sign(key);
    };
    const withAssertion = (jwt: string) =>
      form({ grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: jwt });

    it('authenticates through openid-client', async () => {
      const config = await oidc.discovery(new URL(iam.issuer), 'service-pk', undefined, oidc.PrivateKeyJwt({ key: pkjwtKey.privateKey, kid: pkjwtKey.kid }), {
        execute: [oidc.allowInsecureRequests],
      });
      const tokens = await oidc.clientCredentialsGrant(config, {});
      expect(tokens.scope).toBe('evidence:review');
    });

    it('accepts each jti once', async () => {
      const jwt = await assertion();
      expect((await withAssertion(jwt)).status).toBe(200);
      const replay = await withAssertion(jwt);
      expect(replay.status).toBe(401);
      expect((await body(replay)).error_description).toMatch(/jti already used/);
    });

    it('refuses another audience, a long lifetime, an expired assertion and a non-ES256 one', async () => {
      const now = Math.floor(Date.now() / 1000);
      for (const jwt of [
        await assertion({ aud: 'https://other.example/token' }),
        await assertion({ iat: now, exp: now + 3600 }),
        await assertion({ iat: now - 120, exp: now - 60 }),
        await assertion({}, 'HS256', new TextEncoder().encode('x'.repeat(32))),
      ]) {
        const r = await withAssertion(jwt);
        expect(r.status).toBe(401);
        expect((await body(r)).error).toBe('invalid_client');
      }
    });

    it('refuses an assertion signed by a key the client did not register', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      expect((await withAssertion(await assertion({}, 'ES256', privateKey))).status).toBe(401);
    });

    it('refuses an assertion whose payload is not a JSON object with 401 invalid_client on every endpoint that authenticates clients', async () => {
      const header = Buffer.from('{"alg":"ES256"}').toString('base64url');
      const sig = Buffer.from('sig').toString('base64url');
      const payloads = ['notjson', 'null', '[]', '"iss"', '42'].map((p) => Buffer.from(p).toString('base64url'));
      for (const path of ['/oauth/token', '/oauth/par', '/oauth/revoke', '/oauth/introspect']) {
        for (const payload of payloads) {
          const r = await fetch(`${iam.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'client_credentials',
              response_type: 'code',
              token: 'x',
              client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
              client_assertion: `${header}.${payload}.${sig}`,
            }),
          });
          expect([path, payload, r.status]).toEqual([path, payload, 401]);
          expect(await body(r)).toEqual({ error: 'invalid_client', error_description: 'client assertion rejected: malformed' });
        }
      }
    });

    it('refuses a client id no row can hold (NUL, a lone surrogate) with 401 invalid_client on every endpoint that authenticates clients', async () => {
      // Basic is decoded by iam itself (the edge layer refuses a NUL in a form body or a query before
      // any route runs), and an assertion's iss is read from its JSON: neither may reach Postgres.
      const b64 = (text: string) => Buffer.from(text).toString('base64url');
      const unsignedAssertion = (iss: string) => `${b64('{"alg":"ES256"}')}.${b64(JSON.stringify({ iss, sub: iss, aud: `${iam.issuer}/oauth/token`, jti: randomUUID() }))}.${b64('sig')}`;
      const cases: Array<[string, Record<string, string>, Record<string, string>, string]> = [
        ['Basic, id form-encoded with %00', { authorization: `Basic ${Buffer.from(`service-a%00:${SECRET}`).toString('base64')}` }, {}, 'client authentication failed'],
        ['Basic, raw NUL in the id', { authorization: `Basic ${Buffer.from(`service-a\u0000:${SECRET}`).toString('base64')}` }, {}, 'client authentication failed'],
        ['assertion iss with NUL', {}, { client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: unsignedAssertion('service-pk\u0000') }, 'client assertion rejected: unknown client'],
        ['assertion iss with a lone surrogate', {}, { client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: unsignedAssertion('service-pk\ud800') }, 'client assertion rejected: unknown client'],
      ];
      for (const path of ['/oauth/token', '/oauth/par', '/oauth/revoke', '/oauth/introspect']) {
        for (const [name, headers, params, description] of cases) {
          const r = await fetch(`${iam.url}${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
            body: new URLSearchParams({ grant_type: 'client_credentials', response_type: 'code', redirect_uri: 'http://127.0.0.1/cb', token: 'x', ...params }),
          });
          expect({ path, name, status: r.status, body: await body(r) }).toEqual({ path, name, status: 401, body: { error: 'invalid_client', error_description: description } });
          if (headers['authorization']) expect(r.headers.get('www-authenticate')).toBe('Basic realm="OAuth"');
        }
      }
      // The client itself is untouched: its own id still authenticates.
      expect((await form({ grant_type: 'client_credentials' }, { authorization: basic('service-a', SECRET) })).status).toBe(200);
    });

    it('refuses a secret for a private_key_jwt client', async () => {
      expect((await form({ grant_type: 'client_credentials' }, { authorization: basic('service-pk', 'anything') })).status).toBe(401);
    });
  });

  describe('signing-key rotation seen by an offline verifier', () => {
    it('never fails a verification while keys rotate, then retires the old key', async () => {
      const keys = iam.app.get(SigningKeysService);
      const clock = iam.app.get(Clock);
      const verifier = new JwtVerifier({ jwksUrl: `${iam.url}/.well-known/jwks.json`, issuer: iam.issuer, audience: 'platform', refetchCooldownMs: 0 });
      const mint = async () => (await body(await form({ grant_type: 'client_credentials' }, { authorization: basic('service-a', SECRET) }))).access_token;

      const before = await mint();
      await verifier.verify(before);
      const oldKid = JSON.parse(Buffer.from(before.split('.')[0], 'base64url').toString()).kid;

      expect((await keys.rotate({ force: true })).outcome).toBe('waiting_for_propagation');
      clock.advance(301_000);
      const rotated = await keys.rotate({ force: true });
      expect(rotated.outcome).toBe('rotated');

      const failures: string[] = [];
      for (let i = 0; i < 20; i++) {
        const token = i % 2 ? before : await mint();
        await verifier.verify(token).catch((e: Error) => failures.push(e.message));
      }
      expect(failures).toEqual([]);
      const after = await mint();
      expect(JSON.parse(Buffer.from(after.split('.')[0], 'base64url').toString()).kid).toBe(rotated.active);

      let jwks = (await jwksKids(iam.url));
      expect(jwks).toEqual(expect.arrayContaining([oldKid, rotated.active, rotated.next]));
      clock.advance((900 + 61) * 1000);
      expect((await keys.rotate()).retired).toEqual([oldKid]);
      jwks = (await jwksKids(iam.url));
      expect(jwks).not.toContain(oldKid);
    });

    it('keeps private keys encrypted at rest', async () => {
      const rows: Array<{ private_key_encrypted: string; public_jwk: Record<string, unknown> }> = await iam.app
        .get(DataSource)
        .query('SELECT private_key_encrypted, public_jwk FROM iam_signing_keys');
      for (const r of rows) {
        expect(r.private_key_encrypted.startsWith('e1.t1.')).toBe(true);
        expect(r.private_key_encrypted).not.toContain('PRIVATE KEY');
        expect(r.public_jwk).not.toHaveProperty('d');
      }
    });
  });
});
