import { SecretHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import * as oidc from 'openid-client';
import { DataSource } from 'typeorm';
import { LocalTokenVerifier } from '../src/app/oauth/local-token-verifier.service';
import { ClientsRepository } from '../src/app/clients/clients.repository';
import { Clock } from '@platform/runtime';
import { PasswordHasher } from '@platform/crypto';
import { UsersRepository } from '../src/app/users/users.repository';
import { authorizeWithPassword, HttpBrowser } from './http-login';
import { startIam } from './iam-test-env';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:4999/callback';
const SERVICE_SECRET = 'introspector-secret-0123456789abcdef';
const body = async (r: Response) => (await r.json()) as Record<string, string | boolean>;
const FORM = 'application/x-www-form-urlencoded';
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

describe('iam: authorization code + PKCE, refresh rotation, userinfo, revocation, introspection', () => {
  let iam: RunningService & { issuer: string };
  let userId: string;
  let config: oidc.Configuration;

  /** Follows the browser's redirects: authorize → sign-in form → authorize → callback. */
  async function signIn(authorizeUrl: string, browser = new HttpBrowser(iam.url)): Promise<{ location: string; browser: HttpBrowser }> {
    const r = await authorizeWithPassword(browser, authorizeUrl, 'ada@example.test', PASSWORD);
    return { location: r.location ?? '', browser };
  }

  async function authorizeUrl(extra: Record<string, string> = {}) {
    const verifier = oidc.randomPKCECodeVerifier();
    const params: Record<string, string> = {
      redirect_uri: REDIRECT,
      scope: 'openid email profile kb:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      ...extra,
    };
    return { url: oidc.buildAuthorizationUrl(config, params).toString(), verifier, params };
  }

  const tokenRequest = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${iam.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form),
    });
  const serviceAuth = { authorization: `Basic ${Buffer.from(`introspector:${SERVICE_SECRET}`).toString('base64')}` };
  const introspect = async (token: string) =>
    body(await fetch(`${iam.url}/oauth/introspect`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...serviceAuth }, body: new URLSearchParams({ token }) }));

  /** A code for another registered client, through the same sign-in. */
  async function codeForClient(clientId: string, scope: string) {
    const a = await authorizeUrl({ scope });
    const u = new URL(a.url);
    u.searchParams.set('client_id', clientId);
    const { location } = await signIn(u.toString());
    return { ...a, code: new URL(location).searchParams.get('code')! };
  }

  async function codeFor(extra: Record<string, string> = {}) {
    const a = await authorizeUrl(extra);
    const { location } = await signIn(a.url);
    return { ...a, callback: new URL(location), code: new URL(location).searchParams.get('code')! };
  }

  beforeAll(async () => {
    iam = await startIam();
    userId = (await iam.app.get(UsersRepository).upsertByEmail('Ada@Example.test', 'Ada', await new PasswordHasher().hash(PASSWORD))).id;
    const clients = iam.app.get(ClientsRepository);
    await clients.upsert({
      clientId: 'spa',
      name: 'SPA',
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: [REDIRECT, 'http://127.0.0.1:4999/other'],
      scopes: ['openid', 'email', 'profile', 'offline_access', 'kb:read'],
      firstParty: true,
    });
    await clients.upsert({
      clientId: 'third-party',
      name: 'Third party',
      isConfidential: false,
      tokenEndpointAuthMethod: 'none',
      grantTypes: ['authorization_code'],
      redirectUris: [REDIRECT],
      scopes: ['openid'],
    });
    await clients.upsert({
      clientId: 'introspector',
      name: 'Resource server',
      isConfidential: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      grantTypes: ['client_credentials'],
      scopes: ['kb:read'],
      secretHash: iam.app.get(SecretHasher).hash(SERVICE_SECRET),
      firstParty: true,
    });
    config = await oidc.discovery(new URL(iam.issuer), 'spa', undefined, oidc.None(), { execute: [oidc.allowInsecureRequests] });
  });

  afterAll(() => iam.stop());

  it('runs the whole flow with openid-client: tokens, a validated id_token, userinfo', async () => {
    const { callback, verifier, params } = await codeFor();
    expect(callback.searchParams.get('state')).toBe(params['state']);
    expect(callback.searchParams.get('iss')).toBe(iam.issuer);
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: params['state'],
      expectedNonce: params['nonce'],
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ sub: userId, aud: 'spa', iss: iam.issuer, nonce: params['nonce'], acr: 'aal1', amr: ['pwd'] });
    expect(typeof claims['auth_time']).toBe('number');
    expect(typeof claims['at_hash']).toBe('string');
    expect(tokens.refresh_token).toMatch(/^iamrt_/);
    const at = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString());
    expect(at).toMatchObject({ sub: userId, client_id: 'spa', acr: 'aal1', amr: ['pwd'], scope: 'openid email profile kb:read' });
    // A token for no resource names no e-mail; userinfo does, for the email scope (docs/iam.md, Tokens).
    expect(at.email).toBeUndefined();
    const info = await oidc.fetchUserInfo(config, tokens.access_token, userId);
    expect(info).toMatchObject({ sub: userId, email: 'ada@example.test', email_verified: true, name: 'Ada' });
  });

  it('reuses the session for a second authorization without asking again, and prompt=login forces a new sign-in', async () => {
    const first = await authorizeUrl();
    const { browser } = await signIn(first.url);
    const second = await authorizeUrl();
    const again = await browser.request(second.url);
    expect(new URL(again.headers.get('location')!).searchParams.get('code')).toBeTruthy();
    const forced = await authorizeUrl({ prompt: 'login' });
    const relogin = await browser.request(forced.url);
    expect(relogin.headers.get('location')).toMatch(/^\/login\?return_to=/);
    expect(decodeURIComponent(relogin.headers.get('location')!)).not.toContain('prompt=login');
  });

  it('answers prompt=none without a session with login_required at the redirect_uri', async () => {
    const { url, params } = await authorizeUrl({ prompt: 'none' });
    const r = await fetch(url, { redirect: 'manual' });
    const back = new URL(r.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('login_required');
    expect(back.searchParams.get('state')).toBe(params['state']);
  });

  describe('conformance', () => {
    it('answers a response_mode other than query with invalid_request and a request object with request_not_supported, at the redirect_uri', async () => {
      const { browser } = await signIn((await authorizeUrl()).url);
      const errorOf = async (extra: Record<string, string>) => {
        const back = new URL((await browser.request((await authorizeUrl(extra)).url)).headers.get('location')!);
        expect(back.origin + back.pathname).toBe(REDIRECT);
        return back.searchParams.get('error');
      };
      expect(await errorOf({ response_mode: 'fragment' })).toBe('invalid_request');
      expect(await errorOf({ response_mode: 'form_post' })).toBe('invalid_request');
      expect(await errorOf({ request: 'eyJhbGciOiJub25lIn0.eyJzY29wZSI6Im9wZW5pZCJ9.' })).toBe('request_not_supported');
      const query = new URL((await browser.request((await authorizeUrl({ response_mode: 'query' })).url)).headers.get('location')!);
      expect(query.searchParams.get('code')).toBeTruthy();
    });

    it('answers prompt=none with login_required when id_token_hint names another user than the session, or is no id_token of ours', async () => {
      const idTokenOf = async (email: string) => {
        const a = await authorizeUrl();
        const r = await authorizeWithPassword(new HttpBrowser(iam.url), a.url, email, PASSWORD);
        const code = new URL(r.location!).searchParams.get('code')!;
        const tokens = await body(await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code, redirect_uri: REDIRECT, code_verifier: a.verifier }));
        return { idToken: tokens['id_token'] as string, accessToken: tokens['access_token'] as string };
      };
      await iam.app.get(UsersRepository).upsertByEmail('bob@example.test', 'Bob', await new PasswordHasher().hash(PASSWORD));
      const ada = await idTokenOf('ada@example.test');
      const bob = await idTokenOf('bob@example.test');
      const { browser } = await signIn((await authorizeUrl()).url);
      const answer = async (hint: string, prompt = 'none') =>
        new URL((await browser.request((await authorizeUrl({ prompt, id_token_hint: hint })).url)).headers.get('location')!).searchParams;
      expect((await answer(ada.idToken)).get('code')).toBeTruthy();
      expect((await answer(bob.idToken)).get('error')).toBe('login_required');
      expect((await answer(ada.accessToken)).get('error')).toBe('login_required');
      expect((await answer('not-a-token')).get('error')).toBe('login_required');
      // Without prompt=none the hint decides nothing: the signed-in user answers.
      expect((await browser.request((await authorizeUrl({ id_token_hint: bob.idToken })).url)).headers.get('location')).toContain('code=');
    });

    it('sends the code with Cache-Control: no-store and Referrer-Policy: no-referrer; HTML answers are neither framed nor sniffed', async () => {
      const { browser } = await signIn((await authorizeUrl()).url);
      const withCode = await browser.request((await authorizeUrl()).url);
      expect(new URL(withCode.headers.get('location')!).searchParams.get('code')).toBeTruthy();
      expect(withCode.headers.get('cache-control')).toBe('no-store');
      expect(withCode.headers.get('referrer-policy')).toBe('no-referrer');
      const unknownClient = new URL((await authorizeUrl()).url);
      unknownClient.searchParams.set('client_id', 'nobody');
      for (const page of [await fetch(`${iam.url}/login`), await fetch(unknownClient)]) {
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect(page.headers.get('x-content-type-options')).toBe('nosniff');
        expect(page.headers.get('x-frame-options')).toBe('DENY');
        expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      }
    });
  });

  describe('PKCE and redirect_uri', () => {
    it('refuses a public client without PKCE, the plain method and a missing method at the redirect_uri', async () => {
      const cases: Array<Record<string, string>> = [{ code_challenge: '', code_challenge_method: '' }, { code_challenge_method: 'plain' }];
      for (const extra of cases) {
        const a = await authorizeUrl(extra);
        const u = new URL(a.url);
        if (extra['code_challenge'] === '') {
          u.searchParams.delete('code_challenge');
          u.searchParams.delete('code_challenge_method');
        }
        const back = new URL((await fetch(u, { redirect: 'manual' })).headers.get('location')!);
        expect(back.searchParams.get('error')).toBe('invalid_request');
      }
      const a = await authorizeUrl();
      const u = new URL(a.url);
      u.searchParams.delete('code_challenge_method');
      const back = new URL((await fetch(u, { redirect: 'manual' })).headers.get('location')!);
      expect(back.searchParams.get('error_description')).toMatch(/S256/);
    });

    it('never redirects to an unregistered redirect_uri or for an unknown client', async () => {
      const a = await authorizeUrl({ redirect_uri: 'https://evil.example/cb' });
      const r = await fetch(a.url, { redirect: 'manual' });
      expect(r.status).toBe(400);
      expect(r.headers.get('location')).toBeNull();
      expect(await r.text()).toContain('redirect_uri is not registered');
      const unknown = new URL(a.url);
      unknown.searchParams.set('client_id', 'ghost');
      unknown.searchParams.set('redirect_uri', REDIRECT);
      expect((await fetch(unknown, { redirect: 'manual' })).status).toBe(400);
    });

    it('refuses a wrong verifier, a missing verifier and a redirect_uri that differs at the token endpoint', async () => {
      const wrong = await codeFor();
      const r1 = await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: wrong.code, redirect_uri: REDIRECT, code_verifier: oidc.randomPKCECodeVerifier() });
      expect(await body(r1)).toMatchObject({ error: 'invalid_grant' });
      const missing = await codeFor();
      const r2 = await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: missing.code, redirect_uri: REDIRECT });
      expect(await body(r2)).toMatchObject({ error: 'invalid_request' });
      const other = await codeFor();
      const r3 = await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: other.code, redirect_uri: 'http://127.0.0.1:4999/other', code_verifier: other.verifier });
      expect(await body(r3)).toMatchObject({ error: 'invalid_grant' });
    });

    it('asks before a third-party client gets a code; a refusal goes back as access_denied', async () => {
      const u = new URL((await authorizeUrl()).url);
      u.searchParams.set('client_id', 'third-party');
      u.searchParams.set('scope', 'openid');
      const browser = new HttpBrowser(iam.url);
      const r = await authorizeWithPassword(browser, u.toString(), 'ada@example.test', PASSWORD);
      expect(r.status).toBe(200);
      expect(r.page).toContain('Allow access?');
      const denied = await browser.submit(r.page!, '/login/consent', { return_to: /name="return_to" value="([^"]*)"/.exec(r.page!)![1].replace(/&#38;/g, '&'), decision: 'deny' });
      const back = new URL(denied.headers.get('location')!);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get('error')).toBe('access_denied');
    });
  });

  describe('codes', () => {
    it('refuses a replayed code and revokes what was issued from it', async () => {
      const c = await codeFor();
      const form = { grant_type: 'authorization_code', client_id: 'spa', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier };
      const first = await body(await tokenRequest(form));
      expect((await introspect(first['access_token'] as string))['active']).toBe(true);
      const replay = await tokenRequest(form);
      expect(replay.status).toBe(400);
      expect(await body(replay)).toMatchObject({ error: 'invalid_grant' });
      expect((await introspect(first['access_token'] as string))['active']).toBe(false);
      const refresh = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: first['refresh_token'] as string });
      expect(await body(refresh)).toMatchObject({ error: 'invalid_grant' });
    });

    it('refuses a code after oauth.auth_code_ttl', async () => {
      const c = await codeFor();
      iam.app.get(Clock).advance(601_000);
      const r = await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier });
      expect(await body(r)).toMatchObject({ error: 'invalid_grant', error_description: 'authorization code has expired' });
    });
  });

  describe('refresh tokens', () => {
    async function freshTokens() {
      const c = await codeFor();
      return body(await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier }));
    }

    it('rotates on every use; the id_token keeps the original auth_time and drops the nonce', async () => {
      const t0 = await freshTokens();
      const t1 = await oidc.refreshTokenGrant(config, t0['refresh_token'] as string);
      expect(t1.refresh_token).not.toBe(t0['refresh_token']);
      const original = JSON.parse(Buffer.from((t0['id_token'] as string).split('.')[1], 'base64url').toString());
      expect(t1.claims()).toMatchObject({ auth_time: original.auth_time });
      expect(t1.claims()).not.toHaveProperty('nonce');
      const stale = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t0['refresh_token'] as string });
      expect(await body(stale)).toMatchObject({ error: 'invalid_grant' });
      // Reuse revoked the family: the newer token is dead too.
      const newer = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t1.refresh_token! });
      expect(await body(newer)).toMatchObject({ error: 'invalid_grant' });
    });

    it('revokes the access token issued with a refresh token when that refresh token rotates, and only then', async () => {
      const t0 = await freshTokens();
      // A refused refresh spends nothing, the access token included.
      const widened = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t0['refresh_token'] as string, scope: 'openid evidence:review' });
      expect(widened.status).toBe(400);
      expect((await introspect(t0['access_token'] as string))['active']).toBe(true);
      const t1 = await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t0['refresh_token'] as string }));
      expect((await introspect(t0['access_token'] as string))['active']).toBe(false);
      expect((await introspect(t1['access_token'] as string))['active']).toBe(true);
      const t2 = await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t1['refresh_token'] as string }));
      expect((await introspect(t1['access_token'] as string))['active']).toBe(false);
      expect((await introspect(t2['access_token'] as string))['active']).toBe(true);
    });

    it('still answers a rotation whose revocation of the previous access token fails (the refresh token is spent; a retry would read as a reuse)', async () => {
      const t0 = await freshTokens();
      const verifier = iam.app.get(LocalTokenVerifier);
      const revokeJti = jest.spyOn(verifier, 'revokeJti').mockRejectedValueOnce(new Error('redis down'));
      try {
        const t1 = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t0['refresh_token'] as string });
        expect(t1.status).toBe(200);
        expect(revokeJti).toHaveBeenCalledTimes(1);
        expect((await introspect((await body(t1))['access_token'] as string))['active']).toBe(true);
      } finally {
        revokeJti.mockRestore();
      }
    });

    it('lets exactly one of two concurrent exchanges of one token win', async () => {
      const t0 = await freshTokens();
      const form = { grant_type: 'refresh_token', client_id: 'spa', refresh_token: t0['refresh_token'] as string };
      const results = await Promise.all([tokenRequest(form), tokenRequest(form), tokenRequest(form)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    });

    it('narrows scope on refresh but never widens it', async () => {
      const t0 = await freshTokens();
      const narrowed = await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t0['refresh_token'] as string, scope: 'openid kb:read' }));
      expect(narrowed['scope']).toBe('openid kb:read');
      const widened = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: narrowed['refresh_token'] as string, scope: 'openid evidence:review' });
      expect(await body(widened)).toMatchObject({ error: 'invalid_scope' });
    });

    it('narrows only the access token on refresh: the next refresh token keeps the whole grant (RFC 6749 §6), duplicates answered once', async () => {
      const t0 = await freshTokens();
      const narrowed = await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t0['refresh_token'] as string, scope: 'kb:read openid kb:read' }));
      expect(narrowed['scope']).toBe('kb:read openid');
      expect(claimsOf(narrowed['access_token'] as string)['scope']).toBe('kb:read openid');
      const next = await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: narrowed['refresh_token'] as string }));
      expect(next['scope']).toBe('openid email profile kb:read');
      expect(claimsOf(next['access_token'] as string)['scope']).toBe('openid email profile kb:read');
      // A narrowing without openid gets no id_token; the grant still has it.
      const withoutOpenid = await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: next['refresh_token'] as string, scope: 'kb:read' }));
      expect(withoutOpenid).toMatchObject({ scope: 'kb:read' });
      expect(withoutOpenid['id_token']).toBeUndefined();
      const last = await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: withoutOpenid['refresh_token'] as string }));
      expect(last['scope']).toBe('openid email profile kb:read');
      expect(last['id_token']).toBeDefined();
    });

    it('drops scopes taken off the client since from unredeemed codes and from refresh tokens, and refuses a grant with none left', async () => {
      const clients = iam.app.get(ClientsRepository);
      const shrinking = { clientId: 'shrinking', name: 'Shrinking', isConfidential: false, tokenEndpointAuthMethod: 'none' as const, grantTypes: ['authorization_code', 'refresh_token'], redirectUris: [REDIRECT], firstParty: true };
      await clients.upsert({ ...shrinking, scopes: ['openid', 'email', 'profile', 'kb:read'] });
      const pending = await codeForClient('shrinking', 'openid email profile kb:read');
      const redeemed = await codeForClient('shrinking', 'openid email profile kb:read');
      const exchange = (c: { code: string; verifier: string }) =>
        tokenRequest({ grant_type: 'authorization_code', client_id: 'shrinking', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier });
      const t0 = await body(await exchange(redeemed));
      expect(t0['scope']).toBe('openid email profile kb:read');

      // The manifest is applied again with fewer scopes.
      await clients.upsert({ ...shrinking, scopes: ['openid', 'profile'] });
      const late = await body(await exchange(pending));
      expect(late['scope']).toBe('openid profile');
      expect(claimsOf(late['access_token'] as string)['scope']).toBe('openid profile');
      const refresh = (token: string, extra: Record<string, string> = {}) => tokenRequest({ grant_type: 'refresh_token', client_id: 'shrinking', refresh_token: token, ...extra });
      const t1 = await body(await refresh(t0['refresh_token'] as string));
      expect(t1['scope']).toBe('openid profile');
      expect(claimsOf(t1['access_token'] as string)['scope']).toBe('openid profile');
      const info = await body(await fetch(`${iam.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${t1['access_token']}` } }));
      expect(info).toEqual({ sub: userId, name: 'Ada' });
      // Asking for a lost scope of the grant drops it; asking for lost ones only is refused and spends nothing.
      const asked = await body(await refresh(t1['refresh_token'] as string, { scope: 'profile kb:read' }));
      expect(asked['scope']).toBe('profile');
      const lostOnly = await refresh(asked['refresh_token'] as string, { scope: 'kb:read email' });
      expect(lostOnly.status).toBe(400);
      expect(await body(lostOnly)).toMatchObject({ error: 'invalid_scope' });
      // Rotation carries the grant, still without what was lost.
      const t2 = await body(await refresh(asked['refresh_token'] as string));
      expect(t2['scope']).toBe('openid profile');

      // Nothing of the grant left: refused, and the token is not spent.
      await clients.upsert({ ...shrinking, scopes: ['kb:chat'] });
      const none = await refresh(t2['refresh_token'] as string);
      expect(none.status).toBe(400);
      expect(await body(none)).toMatchObject({ error: 'invalid_grant', error_description: 'none of the scopes of this grant is still allowed for the client' });
      await clients.upsert({ ...shrinking, scopes: ['openid'] });
      expect((await body(await refresh(t2['refresh_token'] as string)))['scope']).toBe('openid');
    });

    it('spends nothing on a refused refresh: the same token still works and its family lives on', async () => {
      const t0 = await freshTokens();
      const refresh = t0['refresh_token'] as string;
      const widened = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: refresh, scope: 'openid evidence:review' });
      expect(widened.status).toBe(400);
      expect(await body(widened)).toMatchObject({ error: 'invalid_scope' });
      const outside = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: refresh, resource: 'https://elsewhere.example.test/mcp' });
      expect(await body(outside)).toMatchObject({ error: 'invalid_target' });
      const again = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: refresh });
      expect(again.status).toBe(200);
      const t1 = await body(again);
      expect((await introspect(t1['access_token'] as string))['active']).toBe(true);
      expect(await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t1['refresh_token'] as string }))).toHaveProperty('access_token');
    });

    it('keeps refresh tokens as keyed hashes with the payload encrypted', async () => {
      const t0 = await freshTokens();
      const rows: Array<{ token_hash: string; payload_encrypted: string }> = await iam.app
        .get(DataSource)
        .query('SELECT token_hash, payload_encrypted FROM oauth_refresh_tokens');
      expect(rows.some((r) => r.token_hash.includes(t0['refresh_token'] as string))).toBe(false);
      for (const r of rows) expect(r.payload_encrypted).not.toContain(userId);
    });
  });

  describe('revocation and introspection', () => {
    it('revokes an access token for its owner and reports it inactive', async () => {
      const c = await codeFor();
      const t = await body(await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier }));
      const active = await introspect(t['access_token'] as string);
      expect(active).toMatchObject({ active: true, client_id: 'spa', sub: userId, token_type: 'Bearer' });
      const revoked = await fetch(`${iam.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: 'spa', token: t['access_token'] as string }) });
      expect(revoked.status).toBe(200);
      expect(await introspect(t['access_token'] as string)).toEqual({ active: false });
      const userinfo = await fetch(`${iam.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${t['access_token']}` } });
      expect(userinfo.status).toBe(401);
    });

    it('revoking a refresh token ends its whole family', async () => {
      const c = await codeFor();
      const t = await body(await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier }));
      await fetch(`${iam.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: 'spa', token: t['refresh_token'] as string }) });
      expect((await introspect(t['access_token'] as string))['active']).toBe(false);
      expect(await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t['refresh_token'] as string }))).toMatchObject({ error: 'invalid_grant' });
    });

    it('reports the tokens of a user deactivated since issue inactive, as userinfo and refresh refuse them', async () => {
      const c = await codeFor();
      const t = await body(await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier }));
      const token = t['access_token'] as string;
      expect(await introspect(token)).toMatchObject({ active: true, sub: userId });
      const users = iam.app.get(UsersRepository);
      await users.setActive(userId, false);
      try {
        expect(await introspect(token)).toEqual({ active: false });
        expect((await fetch(`${iam.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
        expect(await body(await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t['refresh_token'] as string }))).toMatchObject({ error: 'invalid_grant' });
      } finally {
        await users.setActive(userId, true);
      }
      // Deactivation alone revokes nothing: the user's return brings the token back (a revoked one stays dead, below).
      expect(await introspect(token)).toMatchObject({ active: true });
    });

    it("revokes a deactivated user's access token for its owner, so the user's return does not bring it back", async () => {
      const c = await codeFor();
      const t = await body(await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier }));
      const token = t['access_token'] as string;
      const users = iam.app.get(UsersRepository);
      await users.setActive(userId, false);
      try {
        const revoked = await fetch(`${iam.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ client_id: 'spa', token }) });
        expect(revoked.status).toBe(200);
      } finally {
        await users.setActive(userId, true);
      }
      expect(await introspect(token)).toEqual({ active: false });
      expect((await fetch(`${iam.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    });

    it('answers inactive for garbage and needs client authentication', async () => {
      expect(await introspect('not-a-token')).toEqual({ active: false });
      const anon = await fetch(`${iam.url}/oauth/introspect`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=x' });
      expect(anon.status).toBe(401);
    });

    it('refuses repeated and non-string client credentials with 400 invalid_request before authenticating, as the token endpoint does', async () => {
      const basicAuth = serviceAuth.authorization;
      for (const path of ['/oauth/revoke', '/oauth/introspect', '/oauth/token']) {
        const cases: Array<[string, string, Record<string, string>, string]> = [
          ['client_id=spa&client_id=spa&token=x&grant_type=refresh_token', FORM, {}, 'parameter client_id is repeated'],
          ['client_id=introspector&client_secret%5Ba%5D=b&token=x&grant_type=refresh_token', FORM, {}, 'parameter client_secret must be a string'],
          ['token=x&token=y&grant_type=refresh_token', FORM, { authorization: basicAuth }, 'parameter token is repeated'],
          ['{"client_id":5,"token":"x"}', 'application/json', {}, 'parameter client_id must be a string'],
          ['{"client_id":"spa","token":{"a":1}}', 'application/json', {}, 'parameter token must be a string'],
        ];
        for (const [sent, type, headers, description] of cases) {
          const r = await fetch(`${iam.url}${path}`, { method: 'POST', headers: { 'content-type': type, ...headers }, body: sent });
          const answer = await body(r);
          // The token endpoint takes form bodies only; JSON is refused there before its parameters are read.
          const expected = path === '/oauth/token' && type !== FORM ? 'the body must be application/x-www-form-urlencoded' : description;
          expect({ path, sent, status: r.status, answer }).toEqual({ path, sent, status: 400, answer: { error: 'invalid_request', error_description: expected } });
        }
      }
    });

    it('refuses userinfo without the openid scope', async () => {
      const c = await codeFor({ scope: 'kb:read' });
      const t = await body(await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier }));
      expect(t['id_token']).toBeUndefined();
      const r = await fetch(`${iam.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${t['access_token']}` } });
      expect(r.status).toBe(403);
      expect(r.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    });
  });

  // Last: it moves the clock by months.
  describe('refresh family lifetime', () => {
    it('renews each refresh token on rotation but never the family: it ends IAM_REFRESH_FAMILY_TTL_SEC after the code exchange', async () => {
      const c = await codeFor();
      let t = await body(await tokenRequest({ grant_type: 'authorization_code', client_id: 'spa', code: c.code, redirect_uri: REDIRECT, code_verifier: c.verifier }));
      const DAY = 86_400_000;
      // Refreshed every 13 days (within the 14-day token TTL) for 88 days: each works.
      for (let day = 13; day <= 88; day += 13) {
        iam.app.get(Clock).advance(13 * DAY);
        const next = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t['refresh_token'] as string });
        expect({ day, status: next.status }).toEqual({ day, status: 200 });
        t = await body(next);
      }
      // Day 91: the last token, issued on day 78, is within its own 14 days but past the family's 90.
      iam.app.get(Clock).advance(13 * DAY);
      const ended = await tokenRequest({ grant_type: 'refresh_token', client_id: 'spa', refresh_token: t['refresh_token'] as string });
      expect(await body(ended)).toMatchObject({ error: 'invalid_grant', error_description: 'refresh token has expired' });
    });
  });
});
