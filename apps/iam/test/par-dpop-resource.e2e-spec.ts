import { createHash, randomUUID } from 'node:crypto';
import { PasswordHasher, SecretHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { Clock } from '@platform/runtime';
import { UsersRepository } from '../src/app/users/users.repository';
import { authorizeWithPassword, HttpBrowser, returnToOf } from './http-login';
import { startIam } from './iam-test-env';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:4998/callback';
const KB = 'https://platform.example.test/mcp/kb';
const EVIDENCE = 'https://platform.example.test/evidence-risk-review/mcp';
const SERVICE_SECRET = 'par-dpop-service-secret-0123456789';
const basic = { authorization: `Basic ${Buffer.from(`service:${SERVICE_SECRET}`).toString('base64')}` };
type Json = Record<string, unknown>;

/** A client's DPoP key and hand-made proofs (for the cases openid-client never produces). */
async function dpopKey() {
  const pair = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(pair.publicKey);
  return {
    pair,
    jkt: await calculateJwkThumbprint(jwk),
    proof: (htu: string, claims: Json = {}) =>
      new SignJWT({ jti: randomUUID(), htm: 'POST', htu, iat: Math.floor(Date.now() / 1000), ...claims })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .sign(pair.privateKey),
  };
}

describe('iam: resource indicators (RFC 8707), PAR (RFC 9126), DPoP (RFC 9449)', () => {
  let iam: RunningService & { issuer: string };
  let tokenUrl: string;
  let mcpApp: oidc.Configuration;
  let spa: oidc.Configuration;

  const post = (path: string, form: Record<string, string | string[]>, headers: Record<string, string> = {}) => {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return fetch(`${iam.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
  };
  const json = async (r: Response) => (await r.json()) as Json;

  /** PKCE parameters for one authorization request. */
  async function pkce() {
    const verifier = oidc.randomPKCECodeVerifier();
    return { verifier, params: { code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: oidc.randomState() } };
  }

  /** The browser signs in with the password form and lands on the client's callback. */
  async function callbackOf(url: URL | string, browser = new HttpBrowser(iam.url)): Promise<URL> {
    const r = await authorizeWithPassword(browser, url.toString(), 'grace@example.test', PASSWORD);
    if (!r.location) throw new Error(`no redirect to the client (status ${r.status}): ${r.page?.slice(0, 300)}`);
    return new URL(r.location);
  }

  beforeAll(async () => {
    iam = await startIam({ IAM_RESOURCE_INDICATORS: `${KB},${EVIDENCE}`, OAUTH_DPOP_NONCE_REQUIRED: 'true' });
    tokenUrl = `${iam.issuer}/oauth/token`;
    await iam.app.get(UsersRepository).upsertByEmail('grace@example.test', 'Grace', await new PasswordHasher().hash(PASSWORD));
    const clients = iam.app.get(ClientsRepository);
    const publicClient = {
      isConfidential: false,
      tokenEndpointAuthMethod: 'none' as const,
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [REDIRECT],
      scopes: ['openid', 'offline_access', 'kb:read', 'evidence:review'],
    };
    await clients.upsert({ clientId: 'mcp-app', name: 'MCP app', ...publicClient, firstParty: true, requirePushedAuthorizationRequests: true });
    await clients.upsert({ clientId: 'spa-resources', name: 'SPA', ...publicClient, firstParty: true });
    await clients.upsert({ clientId: 'third-party-par', name: 'Third party', ...publicClient, firstParty: false });
    await clients.upsert({
      clientId: 'service',
      name: 'Service',
      isConfidential: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['client_credentials'],
      scopes: ['kb:read', 'evidence:review'],
      secretHash: iam.app.get(SecretHasher).hash(SERVICE_SECRET),
      firstParty: true,
    });
    await clients.upsert({
      clientId: 'dpop-only',
      name: 'DPoP only',
      isConfidential: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['client_credentials'],
      scopes: ['kb:read'],
      secretHash: iam.app.get(SecretHasher).hash(SERVICE_SECRET),
      firstParty: true,
      dpopBoundAccessTokens: true,
    });
    const discover = (clientId: string) => oidc.discovery(new URL(iam.issuer), clientId, undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    mcpApp = await discover('mcp-app');
    spa = await discover('spa-resources');
  });

  afterAll(() => iam.stop());

  it('publishes PAR, DPoP and resource indicators in its metadata, and the consent prompt it handles', async () => {
    const meta = mcpApp.serverMetadata();
    expect(meta).toMatchObject({
      pushed_authorization_request_endpoint: `${iam.issuer}/oauth/par`,
      require_pushed_authorization_requests: false,
      resource_indicators_supported: true,
      resources_supported: [KB, EVIDENCE],
      prompt_values_supported: ['none', 'login', 'consent'],
    });
    expect(meta.dpop_signing_alg_values_supported).toContain('ES256');
  });

  it('PAR + code + PKCE with a resource and DPoP: a key-bound token for that resource, and a refresh bound to the key', async () => {
    const keys = await oidc.randomDPoPKeyPair('ES256');
    const jkt = await calculateJwkThumbprint(await exportJWK(keys.publicKey));
    const DPoP = oidc.getDPoPHandle(mcpApp, keys);
    const { verifier, params } = await pkce();
    // The push is answered use_dpop_nonce first; openid-client retries with the nonce it was given.
    const url = await oidc.buildAuthorizationUrlWithPAR(mcpApp, { redirect_uri: REDIRECT, scope: 'openid offline_access kb:read', resource: KB, ...params }, { DPoP });
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    const callback = await callbackOf(url);
    const tokens = await oidc.authorizationCodeGrant(mcpApp, callback, { pkceCodeVerifier: verifier, expectedState: params.state }, { resource: KB }, { DPoP });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const at = decodeJwt(tokens.access_token);
    // A token for a resource names the user's e-mail, so the resource can find its own account for them.
    expect(at).toMatchObject({ aud: KB, cnf: { jkt }, client_id: 'mcp-app', scope: 'openid offline_access kb:read', email: 'grace@example.test', email_verified: true });

    // The refresh token works only with a proof of the same key, and a wrong key does not spend it.
    const other = await dpopKey();
    const stolen = await post('/oauth/token', { grant_type: 'refresh_token', client_id: 'mcp-app', refresh_token: tokens.refresh_token! }, { DPoP: await other.proof(tokenUrl) });
    // A proof without iam's nonce is asked for one first; with it, the key is still the wrong one.
    expect(stolen.status).toBe(400);
    expect(await json(stolen)).toMatchObject({ error: 'use_dpop_nonce' });
    const nonce = stolen.headers.get('dpop-nonce')!;
    const wrongKey = await post('/oauth/token', { grant_type: 'refresh_token', client_id: 'mcp-app', refresh_token: tokens.refresh_token! }, { DPoP: await other.proof(tokenUrl, { nonce }) });
    expect(await json(wrongKey)).toMatchObject({ error: 'invalid_grant' });
    const bearer = await post('/oauth/token', { grant_type: 'refresh_token', client_id: 'mcp-app', refresh_token: tokens.refresh_token! });
    expect(await json(bearer)).toMatchObject({ error: 'invalid_grant' });

    const refreshed = await oidc.refreshTokenGrant(mcpApp, tokens.refresh_token!, undefined, { DPoP });
    expect(refreshed.token_type.toLowerCase()).toBe('dpop');
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ aud: KB, cnf: { jkt }, email: 'grace@example.test', email_verified: true });
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  });

  it('refuses a used request_uri, an expired one, and a client that must push its requests asking directly', async () => {
    const { params } = await pkce();
    const url = await oidc.buildAuthorizationUrlWithPAR(mcpApp, { redirect_uri: REDIRECT, scope: 'kb:read', resource: KB, ...params });
    expect((await callbackOf(url)).searchParams.get('code')).toBeTruthy();
    const again = await new HttpBrowser(iam.url).request(url.pathname + url.search);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('invalid_request_uri');

    const later = await oidc.buildAuthorizationUrlWithPAR(mcpApp, { redirect_uri: REDIRECT, scope: 'kb:read', ...params });
    const clock = iam.app.get(Clock);
    clock.advance(61_000);
    try {
      const expired = await fetch(later, { redirect: 'manual' });
      expect(expired.status).toBe(400);
      expect(await expired.text()).toContain('invalid_request_uri');
    } finally {
      clock.advance(-61_000);
    }

    const direct = oidc.buildAuthorizationUrl(mcpApp, { redirect_uri: REDIRECT, scope: 'kb:read', ...params });
    const refused = new URL((await fetch(direct, { redirect: 'manual' })).headers.get('location')!);
    expect(refused.origin + refused.pathname).toBe(REDIRECT);
    expect(refused.searchParams.get('error')).toBe('invalid_request');
    expect(refused.searchParams.get('state')).toBe(params.state);
  });

  it.each([
    ['prompt=login', { prompt: 'login' }],
    ['max_age', { max_age: '60' }],
  ])('sends a pushed request with %s to sign in again, and its continuation takes no older session', async (_name, ask) => {
    const browser = new HttpBrowser(iam.url);
    await callbackOf(oidc.buildAuthorizationUrl(spa, { redirect_uri: REDIRECT, scope: 'openid', ...(await pkce()).params }), browser);
    const clock = iam.app.get(Clock);
    clock.advance(120_000);
    try {
      const { verifier, params } = await pkce();
      const url = await oidc.buildAuthorizationUrlWithPAR(spa, { redirect_uri: REDIRECT, scope: 'openid', ...ask, ...params });
      const pushedAt = Math.floor(clock.now().getTime() / 1000);
      const toLogin = await browser.request(url.pathname + url.search);
      const returnTo = new URL(toLogin.headers.get('location')!, iam.url).searchParams.get('return_to')!;
      expect(returnTo).toMatch(/^\/oauth\/authorize\?client_id=spa-resources&request_uri=/);
      // Whoever holds the session from before the push (here: the same cookie) opens the continued
      // request: it still asks for a sign-in rather than issuing a code.
      const held = await fetch(`${iam.url}${returnTo}`, { redirect: 'manual', headers: { cookie: browser.cookieHeader } });
      expect(held.status).toBe(302);
      const again = held.headers.get('location')!;
      expect(again).toMatch(/^\/login\?return_to=/);
      // A sign-in now gets the code, carrying the new sign-in's time.
      const page = await (await browser.follow(held)).res.text();
      const signedIn = await browser.follow(await browser.submit(page, '/login', { email: 'grace@example.test', password: PASSWORD, return_to: returnToOf(page) }));
      const code = new URL(signedIn.location!).searchParams.get('code')!;
      const tokens = await json(await post('/oauth/token', { grant_type: 'authorization_code', client_id: 'spa-resources', code, code_verifier: verifier, redirect_uri: REDIRECT }));
      expect(decodeJwt(tokens['id_token'] as string).auth_time).toBeGreaterThanOrEqual(pushedAt);
    } finally {
      clock.advance(-120_000);
    }
  });

  it('keeps a pushed request through sign-in and the consent page of a third-party client', async () => {
    const config = await oidc.discovery(new URL(iam.issuer), 'third-party-par', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const { verifier, params } = await pkce();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, { redirect_uri: REDIRECT, scope: 'kb:read', resource: EVIDENCE, ...params });
    const browser = new HttpBrowser(iam.url);
    const consent = await authorizeWithPassword(browser, url.toString(), 'grace@example.test', PASSWORD);
    expect(consent.page).toContain('Allow access?');
    expect(consent.page).toContain('kb:read');
    const allowed = await browser.follow(await browser.submit(consent.page!, '/login/consent', { decision: 'allow', return_to: returnToOf(consent.page!) }));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(allowed.location!), { pkceCodeVerifier: verifier, expectedState: params.state });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: EVIDENCE, client_id: 'third-party-par' });
    expect(decodeJwt(tokens.access_token).cnf).toBeUndefined();
  });

  it('sends a refusal on the consent page of a pushed request back to the client with its state', async () => {
    const config = await oidc.discovery(new URL(iam.issuer), 'third-party-par', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
    const { params } = await pkce();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, { redirect_uri: REDIRECT, scope: 'openid evidence:review', prompt: 'consent', ...params });
    const browser = new HttpBrowser(iam.url);
    const consent = await authorizeWithPassword(browser, url.toString(), 'grace@example.test', PASSWORD);
    expect(consent.page).toContain('Allow access?');
    const denied = await browser.follow(await browser.submit(consent.page!, '/login/consent', { decision: 'deny', return_to: returnToOf(consent.page!) }));
    const back = new URL(denied.location!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(params.state);
  });

  it('redeems a code asked for with dpop_jkt only with a proof of that key', async () => {
    const key = await dpopKey();
    const { verifier, params } = await pkce();
    const callback = await callbackOf(oidc.buildAuthorizationUrl(spa, { redirect_uri: REDIRECT, scope: 'kb:read', dpop_jkt: key.jkt, ...params }));
    const exchange = (headers: Record<string, string>) =>
      post('/oauth/token', { grant_type: 'authorization_code', client_id: 'spa-resources', code: callback.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT }, headers);
    const nonce = (await exchange({ DPoP: await key.proof(tokenUrl) })).headers.get('dpop-nonce')!;
    const other = await dpopKey();
    expect(await json(await exchange({ DPoP: await other.proof(tokenUrl, { nonce }) }))).toMatchObject({ error: 'invalid_grant' });

    const second = await pkce();
    const again = await callbackOf(oidc.buildAuthorizationUrl(spa, { redirect_uri: REDIRECT, scope: 'kb:read', dpop_jkt: key.jkt, ...second.params }));
    const ok = await post(
      '/oauth/token',
      { grant_type: 'authorization_code', client_id: 'spa-resources', code: again.searchParams.get('code')!, code_verifier: second.verifier, redirect_uri: REDIRECT },
      { DPoP: await key.proof(tokenUrl, { nonce }) },
    );
    const body = await json(ok);
    expect(body['token_type']).toBe('DPoP');
    expect(decodeJwt(body['access_token'] as string)).toMatchObject({ aud: 'platform', cnf: { jkt: key.jkt } });
  });

  it('refuses a replayed DPoP proof, a proof for another URL, and a DPoP-only client without one', async () => {
    const key = await dpopKey();
    const first = await post('/oauth/token', { grant_type: 'client_credentials', scope: 'kb:read' }, { ...basic, DPoP: await key.proof(tokenUrl) });
    expect(first.status).toBe(400);
    expect(await json(first)).toMatchObject({ error: 'use_dpop_nonce' });
    const nonce = first.headers.get('dpop-nonce')!;
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    const proof = await key.proof(tokenUrl, { nonce });
    const ok = await post('/oauth/token', { grant_type: 'client_credentials', scope: 'kb:read', resource: KB }, { ...basic, DPoP: proof });
    const body = await json(ok);
    expect(ok.status).toBe(200);
    expect(body).toMatchObject({ token_type: 'DPoP', scope: 'kb:read' });
    expect(ok.headers.get('dpop-nonce')).toBeTruthy();
    expect(decodeJwt(body['access_token'] as string)).toMatchObject({ aud: KB, cnf: { jkt: key.jkt } });

    const replay = await post('/oauth/token', { grant_type: 'client_credentials', scope: 'kb:read', resource: KB }, { ...basic, DPoP: proof });
    expect(replay.status).toBe(400);
    expect(await json(replay)).toMatchObject({ error: 'invalid_dpop_proof', error_description: 'DPoP proof replayed' });

    const elsewhere = await post('/oauth/token', { grant_type: 'client_credentials', scope: 'kb:read' }, { ...basic, DPoP: await key.proof(`${iam.issuer}/oauth/par`, { nonce }) });
    expect(await json(elsewhere)).toMatchObject({ error: 'invalid_dpop_proof' });

    const dpopOnly = { authorization: `Basic ${Buffer.from(`dpop-only:${SERVICE_SECRET}`).toString('base64')}` };
    const plain = await post('/oauth/token', { grant_type: 'client_credentials', scope: 'kb:read' }, dpopOnly);
    expect(await json(plain)).toMatchObject({ error: 'invalid_request', error_description: 'this client must send a DPoP proof' });
  });

  it('introspects a DPoP-bound token as DPoP with the key it is bound to (RFC 9449 §6.2)', async () => {
    const key = await dpopKey();
    const nonce = (await post('/oauth/token', { grant_type: 'client_credentials', scope: 'kb:read' }, { ...basic, DPoP: await key.proof(tokenUrl) })).headers.get('dpop-nonce')!;
    const bound = await json(await post('/oauth/token', { grant_type: 'client_credentials', scope: 'kb:read' }, { ...basic, DPoP: await key.proof(tokenUrl, { nonce }) }));
    const introspect = async (token: string) => json(await post('/oauth/introspect', { token }, basic));
    expect(await introspect(bound['access_token'] as string)).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: key.jkt } });
    const plain = await json(await post('/oauth/token', { grant_type: 'client_credentials', scope: 'kb:read' }, basic));
    const unbound = await introspect(plain['access_token'] as string);
    expect(unbound).toMatchObject({ active: true, token_type: 'Bearer' });
    expect(unbound).not.toHaveProperty('cnf');
  });

  describe('userinfo', () => {
    const userinfoUrl = () => `${iam.issuer}/oauth/userinfo`;
    const ath = (token: string) => createHash('sha256').update(token).digest('base64url');
    const userinfo = (authorization: string, headers: Record<string, string> = {}, method = 'GET') =>
      fetch(`${iam.url}/oauth/userinfo`, { method, headers: { authorization, ...headers } });

    /** A user's token with openid for the default audience, bound to `key`'s DPoP key. */
    async function boundUserToken(key: Awaited<ReturnType<typeof dpopKey>>) {
      const { verifier, params } = await pkce();
      const callback = await callbackOf(oidc.buildAuthorizationUrl(spa, { redirect_uri: REDIRECT, scope: 'openid kb:read', ...params }));
      const exchange = (proof: string) =>
        post('/oauth/token', { grant_type: 'authorization_code', client_id: 'spa-resources', code: callback.searchParams.get('code')!, code_verifier: verifier, redirect_uri: REDIRECT }, { DPoP: proof });
      // The first answer asks for iam's nonce and spends nothing.
      const nonce = (await exchange(await key.proof(tokenUrl))).headers.get('dpop-nonce')!;
      const tokens = await json(await exchange(await key.proof(tokenUrl, { nonce })));
      expect(tokens['token_type']).toBe('DPoP');
      return tokens['access_token'] as string;
    }

    it('takes a DPoP-bound token only with the DPoP scheme and a fresh proof of its key for this method and URL (RFC 9449 §7)', async () => {
      const key = await dpopKey();
      const token = await boundUserToken(key);
      const sub = decodeJwt(token).sub;

      const asBearer = await userinfo(`Bearer ${token}`);
      expect(asBearer.status).toBe(401);
      expect(await json(asBearer)).toMatchObject({ error: 'invalid_token' });
      expect(asBearer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token".*, DPoP algs="/);

      const noProof = await userinfo(`DPoP ${token}`);
      expect(noProof.status).toBe(401);
      expect(await json(noProof)).toMatchObject({ error: 'invalid_dpop_proof' });
      expect(noProof.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof"/);

      const proof = await key.proof(userinfoUrl(), { htm: 'GET', ath: ath(token) });
      const ok = await userinfo(`DPoP ${token}`, { DPoP: proof });
      expect(ok.status).toBe(200);
      expect(await json(ok)).toEqual({ sub });

      const replayed = await userinfo(`DPoP ${token}`, { DPoP: proof });
      expect(await json(replayed)).toMatchObject({ error: 'invalid_dpop_proof' });
      const wrongMethod = await userinfo(`DPoP ${token}`, { DPoP: await key.proof(userinfoUrl(), { htm: 'POST', ath: ath(token) }) });
      expect(await json(wrongMethod)).toMatchObject({ error: 'invalid_dpop_proof' });
      const otherKey = await dpopKey();
      const stolen = await userinfo(`DPoP ${token}`, { DPoP: await otherKey.proof(userinfoUrl(), { htm: 'GET', ath: ath(token) }) });
      expect(await json(stolen)).toMatchObject({ error: 'invalid_dpop_proof' });
      const noAth = await userinfo(`DPoP ${token}`, { DPoP: await key.proof(userinfoUrl(), { htm: 'GET' }) });
      expect(await json(noAth)).toMatchObject({ error: 'invalid_dpop_proof' });

      const posted = await userinfo(`DPoP ${token}`, { DPoP: await key.proof(userinfoUrl(), { ath: ath(token) }) }, 'POST');
      expect(posted.status).toBe(200);
    });

    it('takes a token minted for a resource (RFC 8707) when it carries openid, and refuses one without openid (403 insufficient_scope)', async () => {
      const grant = async (scope: string, resource: string) => {
        const { verifier, params } = await pkce();
        const callback = await callbackOf(oidc.buildAuthorizationUrl(spa, { redirect_uri: REDIRECT, scope, resource, ...params }));
        return oidc.authorizationCodeGrant(spa, callback, { pkceCodeVerifier: verifier, expectedState: params.state });
      };
      const forEvidence = await grant('openid kb:read', EVIDENCE);
      expect(decodeJwt(forEvidence.access_token)).toMatchObject({ aud: EVIDENCE, scope: 'openid kb:read' });
      const ok = await userinfo(`Bearer ${forEvidence.access_token}`);
      expect(ok.status).toBe(200);
      expect(await json(ok)).toEqual({ sub: decodeJwt(forEvidence.access_token).sub });
      expect((await userinfo(`Bearer ${forEvidence.access_token}`, {}, 'POST')).status).toBe(200);

      const withoutOpenid = await grant('kb:read', EVIDENCE);
      expect(decodeJwt(withoutOpenid.access_token)).toMatchObject({ aud: EVIDENCE, scope: 'kb:read' });
      const refused = await userinfo(`Bearer ${withoutOpenid.access_token}`);
      expect(refused.status).toBe(403);
      expect(await json(refused)).toMatchObject({ error: 'insufficient_scope' });
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope"/);
    });

    it('takes the token of a refresh without `resource`, whose aud is every resource of the grant', async () => {
      const { verifier, params } = await pkce();
      const url = oidc.buildAuthorizationUrl(spa, { redirect_uri: REDIRECT, scope: 'openid offline_access kb:read', ...params });
      url.searchParams.append('resource', KB);
      url.searchParams.append('resource', EVIDENCE);
      const first = await oidc.authorizationCodeGrant(spa, await callbackOf(url), { pkceCodeVerifier: verifier, expectedState: params.state });
      const refreshed = await json(await post('/oauth/token', { grant_type: 'refresh_token', client_id: 'spa-resources', refresh_token: first.refresh_token! }));
      const token = refreshed['access_token'] as string;
      expect(decodeJwt(token).aud).toEqual([KB, EVIDENCE]);
      const ok = await userinfo(`Bearer ${token}`);
      expect(ok.status).toBe(200);
      expect(await json(ok)).toEqual({ sub: decodeJwt(token).sub });
    });

    it('refuses an unbound token presented with the DPoP scheme', async () => {

      const second = await pkce();
      const plain = await oidc.authorizationCodeGrant(spa, await callbackOf(oidc.buildAuthorizationUrl(spa, { redirect_uri: REDIRECT, scope: 'openid', ...second.params })), {
        pkceCodeVerifier: second.verifier,
        expectedState: second.params.state,
      });
      const key = await dpopKey();
      const asDpop = await userinfo(`DPoP ${plain.access_token}`, { DPoP: await key.proof(userinfoUrl(), { htm: 'GET', ath: ath(plain.access_token) }) });
      expect(asDpop.status).toBe(401);
      expect(await json(asDpop)).toMatchObject({ error: 'invalid_token' });
      expect((await userinfo(`Bearer ${plain.access_token}`)).status).toBe(200);
    });
  });

  it('sets aud to the resources asked for, keeps the default audience without one, and refuses any other target (invalid_target)', async () => {
    const cc = async (resource?: string | string[]) => {
      const r = await post('/oauth/token', { grant_type: 'client_credentials', scope: 'kb:read', ...(resource ? { resource } : {}) }, basic);
      return { status: r.status, body: await json(r) };
    };
    const aud = (r: { body: Json }) => decodeJwt(r.body['access_token'] as string).aud;
    expect(aud(await cc())).toBe('platform');
    expect(aud(await cc([KB, EVIDENCE]))).toEqual([KB, EVIDENCE]);
    for (const bad of ['https://elsewhere.example.test/mcp', `${KB}#frag`, 'not a uri']) {
      expect(await cc(bad)).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    }

    // At authorize the error goes back to the client; at PAR it is the answer.
    const { verifier, params } = await pkce();
    const unknown = oidc.buildAuthorizationUrl(spa, { redirect_uri: REDIRECT, scope: 'kb:read', resource: 'https://elsewhere.example.test/mcp', ...params });
    const back = new URL((await fetch(unknown, { redirect: 'manual' })).headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    const pushed = await post('/oauth/par', { client_id: 'mcp-app', response_type: 'code', redirect_uri: REDIRECT, resource: 'https://elsewhere.example.test/mcp', ...params });
    expect(pushed.status).toBe(400);
    expect(await json(pushed)).toMatchObject({ error: 'invalid_target' });

    // The token request may narrow the authorized resources, never widen them.
    const both = new URLSearchParams({ redirect_uri: REDIRECT, scope: 'kb:read offline_access', ...params });
    both.append('resource', KB);
    both.append('resource', EVIDENCE);
    const callback = await callbackOf(oidc.buildAuthorizationUrl(spa, both));
    const narrowed = await oidc.authorizationCodeGrant(spa, callback, { pkceCodeVerifier: verifier, expectedState: params.state }, { resource: EVIDENCE });
    expect(decodeJwt(narrowed.access_token).aud).toBe(EVIDENCE);
    const refreshed = await oidc.refreshTokenGrant(spa, narrowed.refresh_token!);
    expect(decodeJwt(refreshed.access_token).aud).toEqual([KB, EVIDENCE]);
    const widened = await post('/oauth/token', { grant_type: 'refresh_token', client_id: 'spa-resources', refresh_token: refreshed.refresh_token!, resource: 'https://elsewhere.example.test/mcp' });
    expect(await json(widened)).toMatchObject({ error: 'invalid_target' });

    const second = await pkce();
    const onlyKb = await callbackOf(oidc.buildAuthorizationUrl(spa, { redirect_uri: REDIRECT, scope: 'kb:read', resource: KB, ...second.params }));
    const outside = await post('/oauth/token', {
      grant_type: 'authorization_code',
      client_id: 'spa-resources',
      code: onlyKb.searchParams.get('code')!,
      code_verifier: second.verifier,
      redirect_uri: REDIRECT,
      resource: EVIDENCE,
    });
    expect(await json(outside)).toMatchObject({ error: 'invalid_target' });
    // The refusal spent nothing: the code is still redeemable for what it was issued for.
    const redeemed = await post('/oauth/token', {
      grant_type: 'authorization_code',
      client_id: 'spa-resources',
      code: onlyKb.searchParams.get('code')!,
      code_verifier: second.verifier,
      redirect_uri: REDIRECT,
    });
    expect(redeemed.status).toBe(200);
    expect(decodeJwt((await json(redeemed))['access_token'] as string).aud).toBe(KB);
  });
});
