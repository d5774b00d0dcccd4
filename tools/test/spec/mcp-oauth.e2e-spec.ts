import { randomBytes } from 'node:crypto';
import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import type { Browser } from 'playwright-core';
import { launchChromium, requireChromium } from '@platform/testing';
import {
  Exchange,
  InMemoryOAuthClientProvider,
  LocalServer,
  LoopbackCertificate,
  loopbackCertificate,
  recordingFetch,
  signInAndAllow,
  startCallbackServer,
  startMetadataDocumentServer,
} from '../support/mcp-oauth';
import { Json, startSystemPlatform, SystemPlatform } from '../support/system-platform';

/**
 * "Identity for the MCP era", end to end on the built platform through its gateway (ports moved
 * by 500): real OAuth clients — the MCP TypeScript SDK's own and openid-client — sign the iam
 * bootstrap user in at iam's real pages in Chromium and call the platform's MCP servers with
 * audience-bound (and DPoP-bound) tokens. The iam user and the KB super-admin share the verified
 * e-mail `admin@example.com`, the documented link between them (docs/kb-mcp.md).
 */
jest.setTimeout(300_000);
requireChromium();

const INITIAL_ACCESS_TOKEN = `iat-${randomBytes(24).toString('hex')}`;
const PASSWORD = `mcp-user-${randomBytes(12).toString('hex')}`;
const DOC = { project_key: 'ops', source_path: 'runbooks/ledger-failover.md', content: '# Ledger failover\n\nThe ledger fails over to the standby cluster within ninety seconds.\n' };
const QUERY = 'ledger failover standby cluster';

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const parse = (r: ToolResult) => JSON.parse((r.content as Array<{ text: string }>)[0].text) as Json;
const form = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('MCP clients sign in through iam and use the platform MCP servers', () => {
  let p: SystemPlatform;
  let browser: Browser;
  let tls: LoopbackCertificate;
  let callback: LocalServer;
  let documents: Awaited<ReturnType<typeof startMetadataDocumentServer>>;
  let kbPat: string;
  let kbAdminId: unknown;
  const user = { email: 'admin@example.com', password: PASSWORD };

  const urls = () => ({
    mcp: `${p.gw}/mcp/kb`,
    evidence: `${p.gw}/evidence-risk-review/mcp`,
    kbMetadata: `${p.gw}/.well-known/oauth-protected-resource/mcp/kb`,
  });
  const signIn = (url: URL) => signInAndAllow(browser, url, callback.url, user);

  beforeAll(async () => {
    tls = await loopbackCertificate();
    callback = await startCallbackServer();
    documents = await startMetadataDocumentServer(tls, (clientId) => ({
      client_id: clientId,
      client_name: 'MCP SDK test client',
      redirect_uris: [callback.url],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }));
    p = await startSystemPlatform({
      offset: 500,
      env: {
        // The iam user with the KB super-admin's e-mail: iam vouches for it, the KB verified it.
        IAM_BOOTSTRAP_USER_EMAIL: user.email,
        IAM_BOOTSTRAP_USER_PASSWORD: PASSWORD,
        // Test policy: metadata documents from this run's https server on 127.0.0.1 only.
        IAM_CIMD_ALLOW_LOOPBACK: 'true',
        IAM_CIMD_HOSTS: new URL(documents.url).host,
        NODE_EXTRA_CA_CERTS: tls.certPath,
        IAM_REGISTRATION_INITIAL_ACCESS_TOKENS: INITIAL_ACCESS_TOKEN,
        IAM_UNREGISTERED_CLIENT_SCOPES: 'openid offline_access mcp:read mcp:tools:propose evidence:review',
      },
    });
    p.secrets.add(INITIAL_ACCESS_TOKEN);
    browser = await launchChromium();

    kbPat = await p.kbToken();
    kbAdminId = (await p.json('GET', '/api/auth/me', kbPat)).body.user.id;
    expect(kbAdminId).toBeTruthy();
    expect((await p.json('POST', '/api/kb/ingest', kbPat, { documents: [DOC] })).status).toBe(202);
    // The worker indexes it; the MCP tools search what the REST retrieval finds.
    const deadline = Date.now() + 60_000;
    let found = false;
    while (!found && Date.now() < deadline) {
      const r = await p.json('POST', '/api/kb/retrieve', kbPat, { query: QUERY });
      found = (r.body?.data ?? []).some((c: Json) => c.source_path === DOC.source_path);
      if (!found) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(found).toBe(true);
  });

  afterAll(async () => {
    await browser?.close();
    await p?.stop();
    await callback?.close();
    await documents?.close();
    tls?.remove();
  });

  describe.each([
    ['a Client ID Metadata Document served on 127.0.0.1', 'metadata-document'],
    ['dynamic registration with an initial access token', 'registration'],
  ] as const)('the MCP SDK OAuth client, identified by %s', (_label, mode) => {
    it('goes from the 401 through discovery, PKCE sign-in in Chromium and a token for /mcp/kb to a tool call in the user tenant, then refreshes', async () => {
      const { mcp, kbMetadata } = urls();
      const log: Exchange[] = [];
      const fetchFn = recordingFetch(log, mode === 'registration' ? { endpoint: `${p.gw}/oauth/register`, initialAccessToken: INITIAL_ACCESS_TOKEN } : undefined);
      let consentPage = '';
      const provider = new InMemoryOAuthClientProvider({
        redirectUrl: callback.url,
        clientMetadataUrl: mode === 'metadata-document' ? documents.clientId : undefined,
        authorize: async (url) => {
          const done = await signIn(url);
          consentPage = done.consentPage;
          return done.callback;
        },
      });
      const fetchesBefore = documents.fetches;

      // 1. No token: the 401 names the RFC 9728 metadata, and the SDK signs the user in from there.
      const first = new StreamableHTTPClientTransport(new URL(mcp), { authProvider: provider, fetch: fetchFn });
      await expect(new Client({ name: 'sdk-test', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
      expect(log[0]).toMatchObject({ method: 'POST', url: mcp, status: 401 });
      expect(log[0].challenge).toContain(`resource_metadata="${kbMetadata}"`);
      const fetched = log.map((e) => `${e.method} ${e.url} ${e.status}`);
      expect(fetched).toContain(`GET ${kbMetadata} 200`);
      expect(fetched).toContain(`GET ${p.gw}/.well-known/oauth-authorization-server 200`);

      const clientId = provider.clientInformation()!.client_id;
      if (mode === 'metadata-document') {
        expect(clientId).toBe(documents.clientId);
        expect(documents.fetches).toBeGreaterThan(fetchesBefore); // iam fetched the document itself
        expect(fetched.some((e) => e.includes('/oauth/register'))).toBe(false);
        expect(consentPage).toContain(`Identified by ${new URL(documents.url).host}`);
      } else {
        expect(fetched).toContain(`POST ${p.gw}/oauth/register 201`);
        expect(clientId).toMatch(/^dyn_/);
        expect(consentPage).toContain('This application registered itself');
      }
      const authorization = provider.authorizationUrls[0];
      expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
        client_id: clientId,
        response_type: 'code',
        code_challenge_method: 'S256',
        resource: mcp,
        scope: 'mcp:read mcp:tools:propose', // the resource's scopes_supported
      });
      expect(provider.callback!.searchParams.get('iss')).toBe(p.gw);

      // 2. The code for a token, asked for the resource.
      await first.finishAuth(provider.code);
      const exchange = log.find((e) => e.url === `${p.gw}/oauth/token` && form(e.requestBody).grant_type === 'authorization_code')!;
      expect(exchange.status).toBe(200);
      expect(form(exchange.requestBody)).toMatchObject({ client_id: clientId, resource: mcp, redirect_uri: callback.url });
      expect(form(exchange.requestBody).code_verifier).toBeTruthy();
      const tokens = provider.tokens()!;
      p.secrets.add(tokens.access_token);
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      expect(decodeJwt(tokens.access_token)).toMatchObject({ aud: mcp, client_id: clientId, scope: 'mcp:read mcp:tools:propose', email: user.email, email_verified: true });

      // 3. Listed tools, and one called as the KB user with the same verified e-mail.
      const searchOnce = async () => {
        const client = new Client({ name: 'sdk-test', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(mcp), { authProvider: provider, fetch: fetchFn }));
        try {
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['kb-search', 'kb-read-document']));
          const result = await client.callTool({ name: 'kb-search', arguments: { query: QUERY, project_key: DOC.project_key } });
          expect(result.isError).toBeFalsy();
          return parse(result).results as Json[];
        } finally {
          await client.close();
        }
      };
      expect((await searchOnce()).map((r) => r.source_path)).toContain(DOC.source_path);

      // 4. Refresh: a new access token for the same resource, the refresh token rotated.
      expect(await auth(provider, { serverUrl: new URL(mcp), fetchFn })).toBe('AUTHORIZED');
      const refreshed = provider.tokens()!;
      p.secrets.add(refreshed.access_token);
      const refresh = log.find((e) => e.url === `${p.gw}/oauth/token` && form(e.requestBody).grant_type === 'refresh_token')!;
      expect(refresh.status).toBe(200);
      expect(form(refresh.requestBody)).toMatchObject({ client_id: clientId, resource: mcp, refresh_token: tokens.refresh_token });
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(decodeJwt(refreshed.access_token)).toMatchObject({ aud: mcp, client_id: clientId, email: user.email });
      expect((await searchOnce()).map((r) => r.source_path)).toContain(DOC.source_path);

      // The calls are audited in the tenant as the KB super-admin, with no tenant MCP token.
      const audit = await p.json('GET', '/api/admin/mcp-tool-call-audit?tool=kb-search&outcome=ok', kbPat);
      expect(audit.status).toBe(200);
      expect(audit.body.data.length).toBeGreaterThanOrEqual(2);
      for (const row of audit.body.data as Json[]) expect(row).toMatchObject({ user_id: kbAdminId, token_id: null });
    });
  });

  describe('openid-client with PAR, PKCE and DPoP', () => {
    it('uses DPoP-bound tokens at evidence-review and kb-api with fresh proofs; a replayed proof, bearer use and the wrong audience are refused', async () => {
      const { mcp, evidence } = urls();
      const config = await oidc.dynamicClientRegistration(
        new URL(p.gw),
        { client_name: 'openid-client test', redirect_uris: [callback.url], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
        oidc.None(),
        { initialAccessToken: INITIAL_ACCESS_TOKEN, execute: [oidc.allowInsecureRequests] },
      );
      // Every request the client sends to a resource, with its proof, for the replay below.
      const sent: Array<{ url: string; headers: Headers; body: unknown }> = [];
      config[oidc.customFetch] = (url, options) => {
        sent.push({ url, headers: new Headers(options.headers), body: options.body });
        return fetch(url, options as RequestInit);
      };
      const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair('ES256'));
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const params = new URLSearchParams({
        redirect_uri: callback.url,
        scope: 'openid offline_access mcp:read evidence:review',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      params.append('resource', mcp);
      params.append('resource', evidence);
      const pushed = await oidc.buildAuthorizationUrlWithPAR(config, params, { DPoP });
      expect([...pushed.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
      const { callback: back } = await signIn(pushed);

      // The code for a token for evidence review only, bound to the key.
      const forEvidence = await oidc.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state }, { resource: evidence }, { DPoP });
      p.secrets.add(forEvidence.access_token);
      expect(forEvidence.token_type.toLowerCase()).toBe('dpop');
      const jkt = (decodeJwt(forEvidence.access_token).cnf as { jkt: string }).jkt;
      expect(decodeJwt(forEvidence.access_token)).toMatchObject({ aud: evidence, client_id: config.clientMetadata().client_id, email: user.email });

      const rpc = (body: object) => JSON.stringify({ jsonrpc: '2.0', id: 1, ...body });
      const mcpHeaders = () => new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
      const profiles = await oidc.fetchProtectedResource(config, forEvidence.access_token, new URL(`${p.gw}/evidence-risk-review/profiles`), 'GET', undefined, undefined, { DPoP });
      expect(profiles.status).toBe(200);
      const evidenceTools = await oidc.fetchProtectedResource(config, forEvidence.access_token, new URL(evidence), 'POST', rpc({ method: 'tools/list', params: {} }), mcpHeaders(), { DPoP });
      expect(evidenceTools.status).toBe(200);
      expect(((await evidenceTools.json()) as Json).result.tools.map((t: Json) => t.name)).toContain('evidence_review.assess');

      // A refresh narrowed to kb: the same key, another audience.
      const forKb = await oidc.refreshTokenGrant(config, forEvidence.refresh_token!, { resource: mcp }, { DPoP });
      p.secrets.add(forKb.access_token);
      expect(decodeJwt(forKb.access_token)).toMatchObject({ aud: mcp, cnf: { jkt }, email: user.email, email_verified: true });
      const called = await oidc.fetchProtectedResource(
        config,
        forKb.access_token,
        new URL(mcp),
        'POST',
        rpc({ method: 'tools/call', params: { name: 'kb-search', arguments: { query: QUERY, project_key: DOC.project_key } } }),
        mcpHeaders(),
        { DPoP },
      );
      expect(called.status).toBe(200);
      const result = ((await called.json()) as Json).result;
      expect(JSON.parse(result.content[0].text).results.map((r: Json) => r.source_path)).toContain(DOC.source_path);

      // The same proof again: refused, its jti is spent on every replica.
      const last = sent.filter((s) => s.url === mcp).at(-1)!;
      expect(last.headers.get('authorization')).toBe(`DPoP ${forKb.access_token}`);
      const replay = await fetch(mcp, { method: 'POST', headers: last.headers, body: last.body as string });
      expect(replay.status).toBe(401);
      expect(replay.headers.get('www-authenticate')).toMatch(/^DPoP error="invalid_dpop_proof", error_description="the DPoP proof was already used"/);

      // The bound token as a plain bearer token: refused.
      const bearer = await fetch(mcp, {
        method: 'POST',
        headers: { authorization: `Bearer ${forKb.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: rpc({ method: 'tools/list', params: {} }),
      });
      expect(bearer.status).toBe(401);
      expect(bearer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", error_description="the token is bound to a DPoP key/);

      // The kb token at evidence review, with a fresh and valid proof: the wrong audience.
      const wrongAudience = await oidc
        .fetchProtectedResource(config, forKb.access_token, new URL(`${p.gw}/evidence-risk-review/profiles`), 'GET', undefined, undefined, { DPoP })
        .then(
          (r) => ({ status: r.status, challenge: r.headers.get('www-authenticate') }),
          (e: { response?: Response }) => ({ status: e.response?.status, challenge: e.response?.headers.get('www-authenticate') ?? null }),
        );
      expect(wrongAudience.status).toBe(401);
      expect(wrongAudience.challenge).toMatch(/error="invalid_token", error_description="claim 'aud' invalid: unexpected audience"/);
    });
  });
});
