import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RunningService, TestDpopKey, TestJwksIssuer } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

/** kb-api's defaults (OAUTH_RESOURCE), as clients address /mcp/kb through the gateway. */
const RESOURCE = 'http://127.0.0.1:8080/mcp/kb';
const METADATA = 'http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp/kb';
const EVIDENCE_RESOURCE = 'http://127.0.0.1:8080/evidence-risk-review/mcp';

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const parse = (r: ToolResult) => JSON.parse((r.content as Array<{ text: string }>)[0].text);

describe('kb-api /mcp/kb with iam tokens (audience, identity link, DPoP, RFC 9728)', () => {
  let svc: RunningService;
  let db: DataSource;
  let issuer: TestJwksIssuer;
  let stop: () => Promise<void>;
  let ada: Caller;
  let acmeSuper: Caller;
  let acmeBob: Caller;

  const url = () => new URL(`${svc.url}/mcp/kb`);
  const rpc = async (body: unknown, headers: Record<string, string>) => {
    const r = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, challenge: r.headers.get('www-authenticate'), body: text ? JSON.parse(text) : null };
  };
  const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
  const call = (name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } });
  const iamToken = (o: { sub: string; scope?: string; audience?: string; extra?: Record<string, unknown> }) =>
    issuer.mint({ audience: o.audience ?? RESOURCE, scope: o.scope ?? 'mcp:read', sub: o.sub, extra: o.extra });

  beforeAll(async () => {
    ({ svc, db, stop, issuer } = await startKb());
    ada = await callerWith(svc.url, db, { email: 'ada@example.com', roles: ['viewer'] });
    await db.query('UPDATE kb_users SET email_verified_at = now() WHERE id = $1', [ada.id]);
    acmeSuper = await callerWith(svc.url, db, { email: 'root@acme.example', tenant: 'acme', roles: ['super-admin'] });
    acmeBob = await callerWith(svc.url, db, { email: 'bob@acme.example', tenant: 'acme', roles: ['viewer'] });
    const ingest = async (tenant: string, who: Caller, title: string) => {
      await db.query(`INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ($1, 'default', 'Default') ON CONFLICT DO NOTHING`, [tenant]);
      const r = await new KbClient(svc.url).call('POST', '/api/kb/ingest', { token: who.token, body: { documents: [{ source_path: `${title}.md`, content: `# ${title}\n\nText.` }] } });
      expect(r.status).toBeLessThan(300);
    };
    await ingest('default', ada, 'default-doc');
    await ingest('acme', acmeSuper, 'acme-doc');
  });
  afterAll(() => stop());

  it('serves its RFC 9728 metadata without a token', async () => {
    const r = await fetch(`${svc.url}/.well-known/oauth-protected-resource/mcp/kb`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({
      resource: RESOURCE,
      authorization_servers: [issuer.issuer],
      scopes_supported: ['mcp:read', 'mcp:tools:propose'],
      bearer_methods_supported: ['header'],
      resource_name: 'Knowledge base (MCP server enterprise-kb)',
      dpop_signing_alg_values_supported: ['ES256', 'ES384', 'ES512', 'EdDSA', 'PS256', 'RS256'],
      dpop_bound_access_tokens_required: false,
    });
  });

  it('answers 401 with a challenge naming the metadata, invalid_token for a refused credential', async () => {
    const none = await rpc(listTools, {});
    expect(none).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    expect(none.challenge).toBe(`Bearer resource_metadata="${METADATA}", DPoP algs="ES256 ES384 ES512 EdDSA PS256 RS256", resource_metadata="${METADATA}"`);
    const unknownMcp = await rpc(listTools, { authorization: 'Bearer mcp_unknown' });
    expect(unknownMcp.status).toBe(401);
    expect(unknownMcp.challenge).toMatch(new RegExp(`^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="${METADATA}"`));
  });

  it('lets a user with a verified e-mail list and call tools through the SDK, in their own tenant, audited as them', async () => {
    const token = await iamToken({ sub: 'iam-user-ada', extra: { email: 'Ada@Example.com', email_verified: true } });
    const client = new Client({ name: 'iam-user', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url(), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('kb-recent-changes');
    const recent = parse(await client.callTool({ name: 'kb-recent-changes', arguments: {} }));
    expect(recent.documents.map((d: { source_path: string }) => d.source_path)).toEqual(['default-doc.md']);
    await client.close();
    const [row] = await db.query(`SELECT tenant_id, user_id::text, token_id, outcome FROM kb_mcp_tool_call_audit WHERE tool = 'kb-recent-changes' ORDER BY id DESC LIMIT 1`);
    expect(row).toEqual({ tenant_id: 'default', user_id: ada.id, token_id: null, outcome: 'ok' });
  });

  it('refuses a token for another resource, an unverified e-mail and an unknown identity', async () => {
    const forEvidence = await rpc(listTools, { authorization: `Bearer ${await iamToken({ sub: 'x', audience: EVIDENCE_RESOURCE, extra: { email: 'ada@example.com', email_verified: true } })}` });
    expect(forEvidence).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    expect(forEvidence.challenge).toMatch(/^Bearer error="invalid_token", error_description="claim 'aud' invalid: unexpected audience"/);
    const unverified = await rpc(listTools, { authorization: `Bearer ${await iamToken({ sub: 'x', extra: { email: 'ada@example.com', email_verified: false } })}` });
    expect(unverified).toMatchObject({ status: 403, body: { error: 'identity_not_linked' } });
    const stranger = await rpc(listTools, { authorization: `Bearer ${await iamToken({ sub: 'nobody' })}` });
    expect(stranger).toMatchObject({ status: 403, body: { error: 'identity_not_linked' } });
  });

  it('acts as the user an admin linked the identity to, in that tenant; unlinking ends it', async () => {
    const token = await iamToken({ sub: 'iam-user-bob' });
    const admin = new KbClient(svc.url);
    const refused = await admin.call('POST', '/api/admin/identity-links', { token: acmeSuper.token, body: { subject: 'iam-user-bob', user_id: ada.id } });
    expect(refused).toMatchObject({ status: 422, body: { errors: { user_id: expect.any(Array) } } });
    // null is not "iam's issuer": refused by name, nothing linked.
    const nullIssuer = await admin.call('POST', '/api/admin/identity-links', { token: acmeSuper.token, body: { subject: 'iam-user-bob', user_id: acmeBob.id, issuer: null } });
    expect([nullIssuer.status, Object.keys(nullIssuer.body.errors)]).toEqual([422, ['issuer']]);
    expect(await db.query(`SELECT 1 FROM kb_identity_links WHERE subject = 'iam-user-bob'`)).toEqual([]);
    const link = await admin.call('POST', '/api/admin/identity-links', { token: acmeSuper.token, body: { subject: 'iam-user-bob', user_id: acmeBob.id, issuer: issuer.issuer } });
    expect(link).toMatchObject({ status: 201, body: { data: { subject: 'iam-user-bob', user_id: acmeBob.id, issuer: issuer.issuer } } });
    expect((await admin.call('POST', '/api/admin/identity-links', { token: acmeSuper.token, body: { subject: 'iam-user-bob', user_id: acmeBob.id } })).status).toBe(409);
    // Linking an identity to an account the admin may not manage would let that identity act as it: a platform
    // administrator of the tenant is out of reach.
    const operator = await callerWith(svc.url, db, { email: 'operator@acme.example', tenant: 'acme', roles: ['super-admin'] });
    await db.query(`INSERT INTO kb_user_permissions (tenant_id, user_id, permission) VALUES (NULL, $1, 'platform.admin')`, [operator.id]);
    const takeover = await admin.call('POST', '/api/admin/identity-links', { token: acmeSuper.token, body: { subject: 'iam-user-root', user_id: operator.id, issuer: issuer.issuer } });
    expect(takeover).toMatchObject({ status: 403, body: { error: 'role_escalation_forbidden' } });
    expect(await db.query(`SELECT 1 FROM kb_identity_links WHERE subject = 'iam-user-root'`)).toEqual([]);

    const recent = await rpc(call('kb-recent-changes'), { authorization: `Bearer ${token}` });
    expect(recent.status).toBe(200);
    expect(JSON.parse(recent.body.result.content[0].text).documents.map((d: { source_path: string }) => d.source_path)).toEqual(['acme-doc.md']);
    expect((await rpc(listTools, { authorization: `Bearer ${token}`, 'x-tenant-id': 'default' })).body).toMatchObject({ error: 'mcp_tenant_mismatch' });

    expect((await admin.call('DELETE', `/api/admin/identity-links/${link.body.data.id}`, { token: acmeSuper.token })).status).toBe(204);
    expect((await rpc(listTools, { authorization: `Bearer ${token}` })).body).toMatchObject({ error: 'identity_not_linked' });
  });

  it("cannot pull an identity whose verified e-mail names a user of another tenant into the linking tenant", async () => {
    const admin = new KbClient(svc.url);
    // acme's admin links the identity of ada (a user of tenant default, by her verified e-mail) to one of acme's users.
    const link = await admin.call('POST', '/api/admin/identity-links', { token: acmeSuper.token, body: { subject: 'iam-user-ada-2', user_id: acmeBob.id, issuer: issuer.issuer } });
    expect(link.status).toBe(201);
    try {
      const adaToken = await iamToken({ sub: 'iam-user-ada-2', extra: { email: 'ada@example.com', email_verified: true } });
      const recent = await rpc(call('kb-recent-changes'), { authorization: `Bearer ${adaToken}` });
      expect(recent.status).toBe(200);
      // She stays herself, in her own tenant: she reads default's documents, never acme's.
      expect(JSON.parse(recent.body.result.content[0].text).documents.map((d: { source_path: string }) => d.source_path)).toEqual(['default-doc.md']);
      const [row] = await db.query(`SELECT tenant_id, user_id::text FROM kb_mcp_tool_call_audit WHERE tool = 'kb-recent-changes' ORDER BY id DESC LIMIT 1`);
      expect(row).toEqual({ tenant_id: 'default', user_id: ada.id });
      // Without a verified e-mail that names someone else, the link decides.
      const unverified = await iamToken({ sub: 'iam-user-ada-2', extra: { email: 'ada@example.com', email_verified: false } });
      const linked = await rpc(call('kb-recent-changes'), { authorization: `Bearer ${unverified}` });
      expect(JSON.parse(linked.body.result.content[0].text).documents.map((d: { source_path: string }) => d.source_path)).toEqual(['acme-doc.md']);
    } finally {
      await admin.call('DELETE', `/api/admin/identity-links/${link.body.data.id}`, { token: acmeSuper.token });
    }
  });

  it('calls a tool only with the scope the token carries: 403 insufficient_scope naming it', async () => {
    const readOnly = await iamToken({ sub: 'iam-user-ada', scope: 'mcp:read kb:read', extra: { email: 'ada@example.com', email_verified: true } });
    const r = await rpc(call('kb-promotion-suggest', { transcript: 'x' }), { authorization: `Bearer ${readOnly}` });
    expect(r).toMatchObject({ status: 403, body: { error: 'mcp_scope_missing', required_scope: 'mcp:tools:propose' } });
    expect(r.challenge).toMatch(new RegExp(`^Bearer error="insufficient_scope", error_description="[^"]+", scope="mcp:tools:propose", resource_metadata="${METADATA}"`));
    const noMcpScope = await iamToken({ sub: 'iam-user-ada', scope: 'kb:read', extra: { email: 'ada@example.com', email_verified: true } });
    expect((await rpc(call('kb-recent-changes'), { authorization: `Bearer ${noMcpScope}` })).body).toMatchObject({ error: 'mcp_scope_missing', required_scope: 'mcp:read' });
  });

  describe('a DPoP-bound iam token', () => {
    const claims = { email: 'ada@example.com', email_verified: true };

    it('is accepted with a proper proof, refused as a plain bearer and with a replayed or misdirected proof', async () => {
      const key = await TestDpopKey.generate();
      const token = await iamToken({ sub: 'iam-user-ada', extra: { ...claims, cnf: key.cnf } });
      const proof = await key.proof({ method: 'POST', url: RESOURCE, accessToken: token });
      const ok = await rpc(call('kb-recent-changes'), { authorization: `DPoP ${token}`, dpop: proof });
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body.result.content[0].text).documents).toHaveLength(1);

      const replay = await rpc(call('kb-recent-changes'), { authorization: `DPoP ${token}`, dpop: proof });
      expect(replay).toMatchObject({ status: 401, body: { error: 'invalid_dpop_proof' } });
      expect(replay.challenge).toMatch(/^DPoP error="invalid_dpop_proof", error_description="the DPoP proof was already used"/);

      const bearer = await rpc(listTools, { authorization: `Bearer ${token}` });
      expect(bearer).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
      expect(bearer.challenge).toMatch(/^Bearer error="invalid_token", error_description="the token is bound to a DPoP key/);

      const elsewhere = await rpc(listTools, { authorization: `DPoP ${token}`, dpop: await key.proof({ method: 'POST', url: EVIDENCE_RESOURCE, accessToken: token }) });
      expect(elsewhere).toMatchObject({ status: 401, body: { error: 'invalid_dpop_proof' } });
    });

    it('is refused on the other kb-api routes as a plain bearer too', async () => {
      const key = await TestDpopKey.generate();
      const token = await iamToken({ sub: 'iam-user-ada', scope: 'kb:read', extra: { cnf: key.cnf } });
      expect((await new KbClient(svc.url).call('GET', '/api/auth/me', { token })).status).toBe(401);
    });
  });
});
