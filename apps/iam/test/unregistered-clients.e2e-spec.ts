import { createHash, randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { PasswordHasher } from '@platform/crypto';
import { RunningService } from '@platform/testing';
import { Clock } from '@platform/runtime';
import { ClientMetadataDocuments } from '../src/app/registration/client-metadata-documents';
import { UsersRepository } from '../src/app/users/users.repository';
import { authorizeWithPassword, HttpBrowser, returnToOf } from './http-login';
import { startIam } from './iam-test-env';

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'grace@example.test';
const REDIRECT = 'http://127.0.0.1:4998/callback';
const INITIAL_TOKEN = `iat-${randomBytes(24).toString('hex')}`;
const json = async (r: Response) => (await r.json()) as Record<string, unknown>;

/**
 * Clients that were never registered: Client ID Metadata Documents served by a real HTTP server
 * on 127.0.0.1 (under the development loopback allowance), and RFC 7591 registration behind an
 * initial access token. Both are public, PKCE S256 only, and the user is asked on first use.
 */
describe('iam: clients that were never registered', () => {
  let iam: RunningService & { issuer: string };
  let docs: Server;
  let base: string;
  const fetches = new Map<string, number>();

  /** The documents the test's client host serves, by path. */
  const document = (path: string, extra: Record<string, unknown> = {}) => ({
    client_id: `${base}${path}`,
    client_name: 'Doc Client',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'openid kb:read',
    ...extra,
  });

  function pkce() {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  }

  function authorizeUrl(clientId: string, challenge: string | undefined, extra: Record<string, string> = {}) {
    const u = new URL('/oauth/authorize', iam.url);
    const params: Record<string, string> = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'openid kb:read', state: 's1', ...extra };
    if (challenge) Object.assign(params, { code_challenge: challenge, code_challenge_method: 'S256' });
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
    return u.pathname + u.search;
  }

  const token = (form: Record<string, string>) =>
    fetch(`${iam.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

  const register = (metadata: unknown, authorization?: string) =>
    fetch(`${iam.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(metadata),
    });

  /** Sign in, see the consent page (asserted), allow, and return the code the callback receives. */
  async function firstUse(clientId: string, expectOnPage: string) {
    const { verifier, challenge } = pkce();
    const browser = new HttpBrowser(iam.url);
    const r = await authorizeWithPassword(browser, authorizeUrl(clientId, challenge), EMAIL, PASSWORD);
    expect(r.status).toBe(200);
    expect(r.page).toContain('Allow access?');
    expect(r.page).toContain(expectOnPage);
    const allowed = await browser.follow(await browser.submit(r.page!, '/login/consent', { return_to: returnToOf(r.page!), decision: 'allow' }));
    const callback = new URL(allowed.location!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    return { code: callback.searchParams.get('code')!, verifier, browser };
  }

  beforeAll(async () => {
    docs = createServer((req, res) => {
      const path = req.url ?? '';
      fetches.set(path, (fetches.get(path) ?? 0) + 1);
      const send = (body: unknown, headers: Record<string, string> = {}) => res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (path === '/clients/good') send(document(path), { 'cache-control': 'public, max-age=60' });
      else if (path === '/clients/pkce') send(document(path));
      else if (path === '/clients/pages') send(document(path, { client_name: 'Pages Client' }));
      else if (path === '/clients/redirects') res.writeHead(302, { location: '/clients/good' }).end();
      else if (path === '/clients/large') send(document(path, { padding: 'x'.repeat(6000) }));
      else if (path === '/clients/slow') setTimeout(() => send(document(path)), 2000).unref();
      else if (path === '/clients/impostor') send(document('/clients/good'));
      else if (path === '/clients/confidential') send(document(path, { token_endpoint_auth_method: 'client_secret_basic' }));
      else if (path === '/clients/plain-redirect') send(document(path, { redirect_uris: ['http://app.example/callback'] }));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
    iam = await startIam({
      IAM_CIMD_ALLOW_LOOPBACK: 'true',
      IAM_CIMD_TIMEOUT_MS: '500',
      IAM_REGISTRATION_INITIAL_ACCESS_TOKENS: INITIAL_TOKEN,
    });
    await iam.app.get(UsersRepository).upsertByEmail(EMAIL, 'Grace', await new PasswordHasher().hash(PASSWORD));
  });

  afterAll(async () => {
    await iam?.stop();
    docs.closeAllConnections();
    await new Promise((r) => docs.close(r));
  });

  describe('Client ID Metadata Documents', () => {
    it('signs in a client known only by its document URL: consent on first use naming its host, a public code exchange, then no second question', async () => {
      const clientId = `${base}/clients/good`;
      const first = await firstUse(clientId, `Identified by <code>${new URL(base).host}</code>`);
      const res = await token({ grant_type: 'authorization_code', client_id: clientId, code: first.code, redirect_uri: REDIRECT, code_verifier: first.verifier });
      expect(res.status).toBe(200);
      const tokens = await json(res);
      const claims = JSON.parse(Buffer.from(String(tokens['access_token']).split('.')[1], 'base64url').toString());
      expect(claims).toMatchObject({ client_id: clientId, scope: 'openid kb:read' });
      expect(String(tokens['refresh_token'])).toMatch(/^iamrt_/);

      // Allowed once: the same user is not asked again.
      const { challenge } = pkce();
      const again = await first.browser.follow(await first.browser.request(authorizeUrl(clientId, challenge)));
      expect(new URL(again.location!).searchParams.get('code')).toBeTruthy();
      // Served from the stored copy, within the document's max-age.
      expect(fetches.get('/clients/good')).toBe(1);
    });

    it('fetches the document again once its max-age (capped by IAM_CIMD_CACHE_SEC) has passed', async () => {
      const clientId = `${base}/clients/good`;
      const before = fetches.get('/clients/good') ?? 0;
      // Without a session, authorize resolves the client and then sends the browser to sign in.
      const resolve = async () => (await fetch(new URL(authorizeUrl(clientId, pkce().challenge), iam.url), { redirect: 'manual' })).headers.get('location');
      expect(await resolve()).toMatch(/^\/login\?return_to=/);
      expect(fetches.get('/clients/good')).toBe(before);
      iam.app.get(Clock).advance(61_000);
      expect(await resolve()).toMatch(/^\/login\?return_to=/);
      expect(fetches.get('/clients/good')).toBe(before + 1);
    });

    it('requires PKCE S256 of such a client', async () => {
      const clientId = `${base}/clients/pkce`;
      const browser = new HttpBrowser(iam.url);
      for (const url of [authorizeUrl(clientId, undefined), authorizeUrl(clientId, undefined, { code_challenge: pkce().challenge, code_challenge_method: 'plain' })]) {
        const res = await browser.request(url);
        expect(res.status).toBe(302);
        const back = new URL(res.headers.get('location')!);
        expect(back.origin + back.pathname).toBe(REDIRECT);
        expect(back.searchParams.get('error')).toBe('invalid_request');
      }
    });

    it.each([
      ['redirects', '/clients/redirects', /redirect \(HTTP 302\), which is not followed/],
      ['is too large', '/clients/large', /larger than 5120 bytes/],
      ['is slow', '/clients/slow', /no answer within 500 ms/],
      ['names a different client_id', '/clients/impostor', /names a different client_id/],
      ['asks for a shared secret', '/clients/confidential', /token_endpoint_auth_method must be none/],
      ['lists a non-https redirect URI', '/clients/plain-redirect', /must use https \(or http on a loopback address\)/],
    ])('refuses a document that %s: no authorization, no token', async (_case, path, reason) => {
      const clientId = `${base}${path}`;
      await expect(iam.app.get(ClientMetadataDocuments).fetch(clientId)).rejects.toThrow(reason);
      const res = await fetch(new URL(authorizeUrl(clientId, pkce().challenge), iam.url), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('unknown or revoked client_id');
      const t = await token({ grant_type: 'authorization_code', client_id: clientId, code: 'x', redirect_uri: REDIRECT, code_verifier: 'x'.repeat(43) });
      expect([t.status, (await json(t))['error']]).toEqual([401, 'invalid_client']);
    });

    it('refuses a document URL pointing at a private address, and URLs the draft rules out, without fetching', async () => {
      const documents = iam.app.get(ClientMetadataDocuments);
      await expect(documents.fetch('https://10.0.0.7/clients/app')).rejects.toThrow(/private or loopback address/);
      await expect(documents.fetch('https://169.254.169.254/latest/meta-data')).rejects.toThrow(/private or loopback address/);
      await expect(documents.fetch('https://[fd00::1]/clients/app')).rejects.toThrow(/private or loopback address/);
      await expect(documents.fetch('https://user:pw@app.example/client')).rejects.toThrow(/user info/);
      await expect(documents.fetch('https://app.example/client#x')).rejects.toThrow(/fragment/);
      await expect(documents.fetch('https://app.example/')).rejects.toThrow(/must have a path/);
      await expect(documents.fetch('https://app.example/a/../client')).rejects.toThrow(/normalized form/);
      await expect(documents.fetch('http://app.example/client')).rejects.toThrow(/must use https/);
      const res = await fetch(new URL(authorizeUrl('https://10.0.0.7/clients/app', pkce().challenge), iam.url), { redirect: 'manual' });
      expect(res.status).toBe(400);
    });
  });

  describe('pages anyone can open', () => {
    it('never fetch a document: the sign-in and consent pages name only a client already known', async () => {
      const clientId = `${base}/clients/pages`;
      const { challenge } = pkce();
      const request = authorizeUrl(clientId, challenge);
      const signIn = await fetch(`${iam.url}/login?return_to=${encodeURIComponent(request)}`);
      expect(signIn.status).toBe(200);
      const page = await signIn.text();
      expect(page).toContain('to continue to the application');
      expect(page).not.toContain('Pages Client');
      const consent = await fetch(`${iam.url}/login/consent?return_to=${encodeURIComponent(request)}`);
      expect(consent.status).toBe(400);
      const browser = new HttpBrowser(iam.url);
      const form = await (await browser.request('/login')).text();
      expect((await browser.submit(form, '/login/consent', { return_to: request, decision: 'deny' })).status).toBe(400);
      expect(fetches.get('/clients/pages')).toBeUndefined();

      // The authorize endpoint resolves it (one fetch); the sign-in page then names it from its row.
      const toLogin = await fetch(`${iam.url}${request}`, { redirect: 'manual' });
      expect(toLogin.headers.get('location')).toMatch(/^\/login\?return_to=/);
      expect(fetches.get('/clients/pages')).toBe(1);
      expect(await (await fetch(`${iam.url}${toLogin.headers.get('location')}`)).text()).toContain('to continue to <strong>Pages Client</strong>');
      expect(fetches.get('/clients/pages')).toBe(1);
    });
  });

  describe('RFC 7591 registration', () => {
    const metadata = { client_name: 'Registered Tool', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none', scope: 'openid kb:read iam:clients.manage' };

    it('is listed in discovery, as metadata documents are', async () => {
      const d = await json(await fetch(`${iam.url}/.well-known/oauth-authorization-server`));
      expect(d).toMatchObject({ registration_endpoint: `${iam.issuer}/oauth/register`, client_id_metadata_document_supported: true });
    });

    it('needs the initial access token', async () => {
      const none = await register(metadata);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      expect((await json(none))['error']).toBe('invalid_token');
      const wrong = await register(metadata, `Bearer ${INITIAL_TOKEN}x`);
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect((await json(wrong))['error']).toBe('invalid_token');
    });

    it.each([
      ['a confidential method', { token_endpoint_auth_method: 'client_secret_basic' }, 'invalid_client_metadata'],
      ['a client secret', { client_secret: 'mine' }, 'invalid_client_metadata'],
      ['client_credentials', { grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      ['a non-https redirect URI', { redirect_uris: ['http://app.example/callback'] }, 'invalid_redirect_uri'],
      ['a redirect URI with a fragment', { redirect_uris: ['https://app.example/cb#frag'] }, 'invalid_redirect_uri'],
      ['no redirect URI', { redirect_uris: [] }, 'invalid_redirect_uri'],
    ])('refuses %s', async (_case, change, error) => {
      const res = await register({ ...metadata, ...change }, `Bearer ${INITIAL_TOKEN}`);
      expect(res.status).toBe(400);
      expect((await json(res))['error']).toBe(error);
    });

    it('registers a public client that then signs in with PKCE, consent shown on first use', async () => {
      const res = await register(metadata, `Bearer ${INITIAL_TOKEN}`);
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const client = await json(res);
      expect(client).toMatchObject({
        client_name: 'Registered Tool',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        // Scopes outside IAM_UNREGISTERED_CLIENT_SCOPES are not granted.
        scope: 'openid kb:read',
      });
      expect(client).not.toHaveProperty('client_secret');
      const clientId = String(client['client_id']);
      expect(typeof client['client_id_issued_at']).toBe('number');

      const noPkce = await fetch(new URL(authorizeUrl(clientId, undefined), iam.url), { redirect: 'manual' });
      expect(new URL(noPkce.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');

      const first = await firstUse(clientId, 'This application registered itself');
      const withoutVerifier = await token({ grant_type: 'authorization_code', client_id: clientId, code: first.code, redirect_uri: REDIRECT });
      expect([withoutVerifier.status, (await json(withoutVerifier))['error']]).toEqual([400, 'invalid_request']);

      // Allowed once: the next authorization goes straight back with a code, which PKCE redeems.
      const { verifier, challenge } = pkce();
      const again = await first.browser.follow(await first.browser.request(authorizeUrl(clientId, challenge)));
      const code = new URL(again.location!).searchParams.get('code')!;
      const res2 = await token({ grant_type: 'authorization_code', client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier });
      expect(res2.status).toBe(200);
      const claims = JSON.parse(Buffer.from(String((await json(res2))['access_token']).split('.')[1], 'base64url').toString());
      expect(claims).toMatchObject({ client_id: clientId, scope: 'openid kb:read' });
    });
  });
});
