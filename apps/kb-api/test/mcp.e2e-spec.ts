import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Clock, startWorker, WorkerHandle } from '@platform/runtime';
import { FakeOpenAiServer, RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith, sessionOf } from './admin-support';
import { McpToolRunner } from '../src/app/mcp/server/mcp-tool-runner';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const ROTATION = `# Signing key rotation

Signing keys rotate through the states next, active, retiring and retired.

## Retiring

A retiring key stays published until the last token it signed has expired. See [[token-lifetimes]].
`;
const LIFETIMES = `# Token lifetimes

Access tokens live fifteen minutes by default. Refresh tokens rotate on every use, see [[refresh-reuse]].
`;
const REUSE = `# Refresh reuse

A reused refresh token revokes the whole token family.
`;
const DECISION = `# Use JWKS for verification

We verify every access token against the published JWKS. See [[signing-key-rotation]].
`;

type ToolResult = Awaited<ReturnType<Client['callTool']>>;
const parse = (r: ToolResult) => JSON.parse((r.content as Array<{ text: string }>)[0].text);

describe('kb-api MCP server /mcp/kb (official SDK client)', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let superAdmin: Caller;
  let admin: Caller;
  let viewer: Caller;
  let foreignAdmin: Caller;
  let mcpToken: string;
  let mcpTokenId: number;
  const llm = new FakeOpenAiServer();
  const api = () => new KbClient(svc.url);
  const url = () => new URL(`${svc.url}/mcp/kb`);

  const connect = async (bearer: string, headers: Record<string, string> = {}) => {
    const client = new Client({ name: 'kb-test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url(), { requestInit: { headers: { authorization: `Bearer ${bearer}`, ...headers } } }));
    return client;
  };
  /** One raw JSON-RPC POST, to see the HTTP status and body the SDK client would only throw. */
  const rpc = async (body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(url(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  };
  const call = (name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const issue = async (body: Record<string, unknown>, by: Caller = superAdmin) => {
    const r = await api().call('POST', '/api/admin/mcp/tokens', { token: by.token, body });
    expect(r.status).toBe(201);
    return r.body as { data: { id: number; scopes: string[] }; plain_token: string };
  };

  beforeAll(async () => {
    await llm.start();
    ({ svc, db, stop } = await startKb({ KB_PROMOTION_ENABLED: 'true', KB_CHAT_PROVIDER: 'openai', KB_LLM_BASE_URL: llm.url, KB_LLM_MODEL: 'test-model', KB_LLM_TIMEOUT_MS: '2000' }));
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    [superAdmin, admin, viewer, foreignAdmin] = await Promise.all([
      callerWith(svc.url, db, { email: 'root@example.com', roles: ['super-admin'] }),
      callerWith(svc.url, db, { email: 'admin@example.com', roles: ['admin'] }),
      callerWith(svc.url, db, { email: 'viewer@example.com', roles: ['viewer'] }),
      callerWith(svc.url, db, { email: 'root@acme.example', tenant: 'acme', roles: ['super-admin'] }),
    ]);
    const ingest = await api().call('POST', '/api/kb/ingest', {
      token: viewer.token,
      body: {
        documents: [
          { project_key: 'platform', source_path: 'guides/signing-key-rotation.md', content: ROTATION },
          { project_key: 'platform', source_path: 'guides/token-lifetimes.md', content: LIFETIMES },
          { project_key: 'platform', source_path: 'guides/refresh-reuse.md', content: REUSE },
          { project_key: 'platform', source_path: 'decisions/use-jwks.md', content: DECISION, metadata: { canonical_type: 'decision', canonical_status: 'accepted' } },
        ],
      },
    });
    expect(ingest.status).toBe(202);
    const deadline = Date.now() + 15_000;
    while ((await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`))[0].n < 4 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const issued = await issue({ label: 'Claude desktop' });
    mcpToken = issued.plain_token;
    mcpTokenId = issued.data.id;
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await stop?.();
    await llm.stop();
  });

  it('issues tokens once, lists and revokes them (super-admin only)', async () => {
    const r = await api().call('POST', '/api/admin/mcp/tokens', { token: superAdmin.token, body: { label: 'CI agent', scopes: ['mcp:read'], expires_at: '2999-01-01T00:00:00Z' } });
    expect(r.status).toBe(201);
    expect(r.body.plain_token).toMatch(/^mcp_[0-9A-Za-z]{40,}$/);
    expect(r.body.data).toMatchObject({ label: 'CI agent', token_last4: r.body.plain_token.slice(-4), scopes: ['mcp:read'], created_by: Number(superAdmin.id), revoked_at: null, last_used_at: null });
    const [stored] = await db.query('SELECT token_hash, tenant_id FROM kb_mcp_tokens WHERE id = $1', [r.body.data.id]);
    expect(stored.tenant_id).toBe('default');
    expect(stored.token_hash).not.toContain(r.body.plain_token);
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);

    const defaults = (await api().call('GET', '/api/admin/mcp/tokens?per_page=1', { token: superAdmin.token })).body;
    expect(defaults).toMatchObject({ current_page: 1, per_page: 1, total: 2, last_page: 2 });
    expect(defaults.data[0]).not.toHaveProperty('plain_token');
    expect(defaults.data[0]).not.toHaveProperty('token_hash');
    const page2 = (await api().call('GET', '/api/admin/mcp/tokens?per_page=1&page=2', { token: superAdmin.token })).body;
    expect(page2.data[0]).toMatchObject({ id: mcpTokenId, scopes: ['mcp:read', 'mcp:tools:propose'] });

    const bad = await api().call('POST', '/api/admin/mcp/tokens', { token: superAdmin.token, body: { label: '', scopes: ['mcp:admin'], expires_at: '2001-01-01T00:00:00Z' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['expires_at', 'label', 'scopes']);
    // expires_at: null is "never expires", as absent; scopes: null is refused (absent is the default).
    const nulls = await api().call('POST', '/api/admin/mcp/tokens', { token: superAdmin.token, body: { label: 'x', scopes: null, expires_at: null } });
    expect(nulls.status).toBe(422);
    expect(Object.keys(nulls.body.errors)).toEqual(['scopes']);
    const forever = await api().call('POST', '/api/admin/mcp/tokens', { token: superAdmin.token, body: { label: 'Forever', expires_at: null } });
    expect(forever.status).toBe(201);
    expect(forever.body.data).toMatchObject({ expires_at: null, scopes: ['mcp:read', 'mcp:tools:propose'] });
    expect((await api().call('POST', `/api/admin/mcp/tokens/${forever.body.data.id}/revoke`, { token: superAdmin.token })).status).toBe(200);

    const revoked = await api().call('POST', `/api/admin/mcp/tokens/${r.body.data.id}/revoke`, { token: superAdmin.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    // Another tenant's token is not found from here, and its revoke is a 404.
    expect((await api().call('POST', `/api/admin/mcp/tokens/${r.body.data.id}/revoke`, { token: foreignAdmin.token })).status).toBe(404);
    expect((await api().call('POST', '/api/admin/mcp/tokens/abc/revoke', { token: superAdmin.token })).status).toBe(404);
  });

  it('gates the admin routes: guest 401, admin 403 on tokens and servers, viewer 403 on the audit', async () => {
    for (const [method, path] of [
      ['GET', '/api/admin/mcp/tokens'],
      ['POST', '/api/admin/mcp/tokens'],
      ['POST', '/api/admin/mcp/tokens/1/revoke'],
      ['GET', '/api/admin/mcp-servers'],
      ['GET', '/api/admin/mcp-servers/enterprise-kb'],
      ['PATCH', '/api/admin/mcp-servers/enterprise-kb/tools/kb-search'],
    ]) {
      const body = method === 'GET' ? undefined : {};
      expect((await api().call(method, path, { body })).status).toBe(401);
      expect((await api().call(method, path, { token: admin.token, body })).status).toBe(403);
    }
    expect((await api().call('GET', '/api/admin/mcp-tool-call-audit')).status).toBe(401);
    expect((await api().call('GET', '/api/admin/mcp-tool-call-audit', { token: viewer.token })).status).toBe(403);
    expect((await api().call('GET', '/api/admin/mcp-tool-call-audit', { token: admin.token })).status).toBe(200);
    expect((await api().call('GET', '/api/admin/mcp-servers', { token: superAdmin.token })).status).toBe(200);
  });

  it('initializes as enterprise-kb 2.0.0 and lists the tools with JSON-schema inputs', async () => {
    const client = await connect(mcpToken);
    expect(client.getServerVersion()).toEqual({ name: 'enterprise-kb', version: '2.0.0' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'kb-document-by-slug',
      'kb-documents-by-type',
      'kb-graph-neighbors',
      'kb-graph-subgraph',
      'kb-promotion-suggest',
      'kb-read-chunk',
      'kb-read-document',
      'kb-recent-changes',
      'kb-search',
      'kb-search-by-project',
    ]);
    const search = tools.find((t) => t.name === 'kb-search')!;
    expect(search.inputSchema).toMatchObject({ type: 'object', required: ['query'], properties: { limit: { type: 'integer', default: 6 } } });
    await client.close();
  });

  it('lets a session or personal access token initialize and list, but not call a tool', async () => {
    const client = await connect(viewer.token);
    expect((await client.listTools()).tools).toHaveLength(10);
    await client.close();
    const session = await sessionOf(svc.url, viewer);
    const listed = await session.call('POST', '/mcp/kb', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headers: { accept: 'application/json, text/event-stream' } });
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools).toHaveLength(10);

    const r = await rpc(call('kb-search', { query: 'signing keys' }), { authorization: `Bearer ${viewer.token}` });
    expect(r).toEqual({ status: 401, body: { error: 'mcp_token_required', message: expect.any(String) } });
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(401);
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).body).toEqual({ message: 'Unauthenticated.' });
  });

  it('searches, reads documents and chunks, and resolves slugs and types over indexed documents', async () => {
    const client = await connect(mcpToken);
    const found = parse(await client.callTool({ name: 'kb-search', arguments: { query: 'retiring signing key', limit: 2 } }));
    expect(found.results.length).toBeGreaterThan(0);
    expect(found.results.length).toBeLessThanOrEqual(2);
    expect(found.results[0]).toMatchObject({ slug: 'signing-key-rotation', project_key: 'platform' });
    const inOther = parse(await client.callTool({ name: 'kb-search-by-project', arguments: { project_key: 'support', query: 'retiring signing key' } }));
    expect(inOther.results).toEqual([]);

    const doc = parse(await client.callTool({ name: 'kb-read-document', arguments: { document_id: found.results[0].document_id } }));
    expect(doc.document).toMatchObject({ id: found.results[0].document_id, project_key: 'platform', title: 'Signing key rotation', source_path: 'guides/signing-key-rotation.md', source_type: 'markdown' });
    expect(doc.document.chunks.map((c: { chunk_order: number }) => c.chunk_order)).toEqual([0, 1]);
    // Tool results pass the output guardrails: in the default escape mode even a plain `>` is escaped.
    expect(doc.document.chunks[1]).toMatchObject({ heading_path: 'Signing key rotation &gt; Retiring', chunk_text: expect.stringContaining('retiring key') });

    const chunk = parse(await client.callTool({ name: 'kb-read-chunk', arguments: { chunk_id: doc.document.chunks[1].chunk_id } }));
    expect(chunk.chunk).toMatchObject({ document_id: doc.document.id, chunk_order: 1, slug: 'signing-key-rotation' });
    const missing = await client.callTool({ name: 'kb-read-chunk', arguments: { chunk_id: 999999 } });
    expect(missing.isError).toBe(true);
    expect(parse(missing).error.code).toBe('not_found');

    const bySlug = parse(await client.callTool({ name: 'kb-document-by-slug', arguments: { slug: 'token-lifetimes', project_key: 'platform', include_chunks: false } }));
    expect(bySlug.document).toMatchObject({ slug: 'token-lifetimes', title: 'Token lifetimes' });
    expect(bySlug.document).not.toHaveProperty('chunks');
    const decisions = parse(await client.callTool({ name: 'kb-documents-by-type', arguments: { type: 'decision', project_key: 'platform' } }));
    expect(decisions.documents.map((d: { slug: string }) => d.slug)).toEqual(['use-jwks']);
    // Timestamps arrive as ISO strings (the output guard once walked a Date into {}).
    const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(decisions.documents[0]).toMatchObject({ updated_at: iso, indexed_at: iso });
    const drafts = parse(await client.callTool({ name: 'kb-documents-by-type', arguments: { type: 'decision', project_key: 'platform', status_filter: 'draft' } }));
    expect(drafts.documents).toEqual([]);
    const recent = parse(await client.callTool({ name: 'kb-recent-changes', arguments: { limit: 3 } }));
    expect(recent.documents).toHaveLength(3);
    await client.close();
  });

  it('suggests promotion candidates through the promotion suggester (scope mcp:tools:propose)', async () => {
    llm.reply({ content: JSON.stringify({ candidates: [{ type: 'decision', slug_proposal: 'Verify With JWKS', title_proposal: 'Verify tokens with the JWKS', reason: 'Settled in the thread.', related: ['[[signing-key-rotation]]'] }] }) });
    const client = await connect(mcpToken);
    const r = parse(await client.callTool({ name: 'kb-promotion-suggest', arguments: { transcript: 'ann: we verify with the JWKS now', project_key: 'platform', existing_slugs: ['use-jwks'] } }));
    expect(r).toEqual({ candidates: [{ type: 'decision', slug_proposal: 'verify-with-jwks', title_proposal: 'Verify tokens with the JWKS', reason: 'Settled in the thread.', related: ['signing-key-rotation'] }] });
    expect(JSON.stringify(llm.calls.at(-1)!.body)).toContain('we verify with the JWKS now');
    llm.reply({ status: 500 });
    const down = await client.callTool({ name: 'kb-promotion-suggest', arguments: { transcript: 'again' } });
    expect(down.isError).toBe(true);
    expect(parse(down).error.code).toBe('llm_unavailable');
    await client.close();
    const [audit] = await db.query(`SELECT outcome, reason FROM kb_mcp_tool_call_audit WHERE tool = 'kb-promotion-suggest' ORDER BY id DESC LIMIT 1`);
    expect(audit).toEqual({ outcome: 'error', reason: 'llm_unavailable' });
  });

  it('walks the document link graph', async () => {
    const client = await connect(mcpToken);
    const around = parse(await client.callTool({ name: 'kb-graph-neighbors', arguments: { node_uid: 'token-lifetimes', project_key: 'platform' } }));
    expect(around.neighbors).toEqual(
      expect.arrayContaining([
        { uid: 'refresh-reuse', title: 'Refresh reuse', edge_type: 'links_to' },
        { uid: 'signing-key-rotation', title: 'Signing key rotation', edge_type: 'linked_from' },
      ]),
    );
    expect(around.neighbors).toHaveLength(2);
    const outgoing = parse(await client.callTool({ name: 'kb-graph-neighbors', arguments: { node_uid: 'token-lifetimes', project_key: 'platform', edge_types: ['links_to'] } }));
    expect(outgoing.neighbors.map((n: { uid: string }) => n.uid)).toEqual(['refresh-reuse']);

    const sub = parse(await client.callTool({ name: 'kb-graph-subgraph', arguments: { seed_slug: 'use-jwks', project_key: 'platform', hops: 2 } }));
    expect(Object.fromEntries(sub.nodes.map((n: { uid: string; hop: number }) => [n.uid, n.hop]))).toEqual({ 'use-jwks': 0, 'signing-key-rotation': 1, 'token-lifetimes': 2 });
    expect(sub.edges).toEqual(
      expect.arrayContaining([
        { source: 'use-jwks', target: 'signing-key-rotation', type: 'links_to' },
        { source: 'signing-key-rotation', target: 'token-lifetimes', type: 'links_to' },
      ]),
    );
    const capped = parse(await client.callTool({ name: 'kb-graph-subgraph', arguments: { seed_slug: 'use-jwks', project_key: 'platform', hops: 3, max_nodes: 2 } }));
    expect(capped.nodes).toHaveLength(2);
    await client.close();
  });

  it('answers the reference errors: tool name, scope, invalid, revoked, expired, foreign tenant', async () => {
    const auth = { authorization: `Bearer ${mcpToken}` };
    expect(await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} }, auth)).toEqual({ status: 422, body: { error: 'tool_name_required', message: expect.any(String) } });
    for (const args of [[], null, 'text', 7]) {
      expect(await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'kb-search', arguments: args } }, auth)).toEqual({ status: 422, body: { error: 'tool_arguments_invalid', message: expect.any(String) } });
    }

    const readOnly = await issue({ label: 'read only', scopes: ['mcp:read'] });
    const scope = await rpc(call('kb-promotion-suggest', { transcript: 'We chose JWKS.' }), { authorization: `Bearer ${readOnly.plain_token}` });
    expect(scope).toEqual({ status: 403, body: { error: 'mcp_scope_missing', message: expect.any(String), required_scope: 'mcp:tools:propose' } });
    const client = await connect(readOnly.plain_token);
    await expect(client.callTool({ name: 'kb-promotion-suggest', arguments: { transcript: 'x' } })).rejects.toThrow(/mcp_scope_missing/);
    await client.close();

    expect((await rpc(call('kb-search', { query: 'keys' }), { authorization: 'Bearer mcp_not-a-real-token' })).body.error).toBe('mcp_token_invalid');
    expect((await rpc(call('kb-search', { query: 'keys' }), { authorization: 'Bearer mcp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })).status).toBe(401);

    const revoked = await issue({ label: 'to revoke' });
    await api().call('POST', `/api/admin/mcp/tokens/${revoked.data.id}/revoke`, { token: superAdmin.token });
    expect(await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${revoked.plain_token}` })).toEqual({ status: 403, body: { error: 'mcp_token_revoked', message: expect.any(String) } });

    const expired = await issue({ label: 'to expire' });
    await db.query(`UPDATE kb_mcp_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.data.id]);
    expect((await rpc(call('kb-search', { query: 'keys' }), { authorization: `Bearer ${expired.plain_token}` })).body.error).toBe('mcp_token_expired');

    const mismatch = await rpc(call('kb-search', { query: 'keys' }), { ...auth, 'x-tenant-id': 'acme' });
    expect(mismatch).toEqual({ status: 403, body: { error: 'mcp_tenant_mismatch', message: expect.any(String) } });

    // Refused tool calls are audited in the tenant of the credential (an unknown token has none).
    const denied = await db.query(
      `SELECT tool, reason, token_id FROM kb_mcp_tool_call_audit WHERE outcome = 'denied' AND reason IN ('mcp_scope_missing', 'mcp_token_expired', 'mcp_tenant_mismatch') ORDER BY id`,
    );
    expect(denied).toEqual([
      { tool: 'kb-promotion-suggest', reason: 'mcp_scope_missing', token_id: String(readOnly.data.id) },
      { tool: 'kb-promotion-suggest', reason: 'mcp_scope_missing', token_id: String(readOnly.data.id) },
      { tool: 'kb-search', reason: 'mcp_token_expired', token_id: String(expired.data.id) },
      { tool: 'kb-search', reason: 'mcp_tenant_mismatch', token_id: expect.any(String) },
    ]);

    // A token of another tenant sees that tenant's (empty) knowledge base, never this one's.
    const acme = await issue({ label: 'acme agent' }, foreignAdmin);
    const foreign = await connect(acme.plain_token);
    expect(parse(await foreign.callTool({ name: 'kb-search', arguments: { query: 'retiring signing key' } })).results).toEqual([]);
    const [{ id: docId }] = await db.query(`SELECT id FROM kb_documents WHERE slug = 'use-jwks'`);
    expect(parse(await foreign.callTool({ name: 'kb-read-document', arguments: { document_id: Number(docId) } })).error.code).toBe('not_found');
    await foreign.close();
  });

  it('refuses a token once the clock passes its expires_at (the clock moves, the row stays as issued)', async () => {
    const clock = svc.app.get(Clock);
    const expiresAt = new Date(clock.nowMs() + 10 * 60_000);
    const expiring = await issue({ label: 'expires in ten minutes', expires_at: expiresAt.toISOString() });
    const list = () => rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${expiring.plain_token}` });
    expect((await list()).status).toBe(200);
    clock.advance(10 * 60_000 + 1_000);
    try {
      expect(await list()).toEqual({ status: 403, body: { error: 'mcp_token_expired', message: expect.any(String) } });
    } finally {
      clock.advance(-(10 * 60_000 + 1_000));
    }
    const [row] = await db.query(`SELECT expires_at FROM kb_mcp_tokens WHERE id = $1`, [expiring.data.id]);
    expect(new Date(row.expires_at).getTime()).toBe(expiresAt.getTime());
    expect((await list()).status).toBe(200);
  });

  it('passes every call through the tool firewall and audits it', async () => {
    const client = await connect(mcpToken);
    const refused = await client.callTool({ name: 'kb-search', arguments: { query: 'signing keys', limit: 'many' } });
    expect(refused.isError).toBe(true);
    expect(parse(refused).error).toMatchObject({ code: 'tool_call_refused', violations: { limit: expect.any(String) } });
    await client.callTool({ name: 'kb-search', arguments: { query: 'mail alice@example.com about signing keys' } });
    await client.close();

    const rows = await db.query(`SELECT * FROM kb_mcp_tool_call_audit WHERE tenant_id = 'default' AND token_id = $1 ORDER BY id`, [mcpTokenId]);
    const last = rows.at(-1);
    expect(last).toMatchObject({ tool: 'kb-search', outcome: 'ok', user_id: superAdmin.id, arguments_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(last.arguments.query).not.toContain('alice@example.com');
    expect(rows.at(-2)).toMatchObject({ tool: 'kb-search', outcome: 'denied', reason: 'firewall:invalid_arguments' });

    const denied = await api().call('GET', `/api/admin/mcp-tool-call-audit?outcome=denied&tool=kb-search&token_id=${mcpTokenId}`, { token: admin.token });
    expect(denied.status).toBe(200);
    // The firewall's refusal, and the earlier refusals of the same token: the tenant mismatch, and before it the four
    // tools/call messages whose arguments were not an object.
    expect(denied.body.data.map((r: { reason: string }) => r.reason)).toEqual(['firewall:invalid_arguments', 'mcp_tenant_mismatch', ...Array(4).fill('tool_arguments_invalid')]);
    expect(denied.body.data[0]).toMatchObject({ tool: 'kb-search', outcome: 'denied', token_id: mcpTokenId, duration_ms: expect.any(Number) });
    const all = await api().call('GET', '/api/admin/mcp-tool-call-audit?per_page=100', { token: admin.token });
    expect(all.body.total).toBeGreaterThanOrEqual(rows.length);
    // Only a tool call refused for want of an MCP token (a personal token's) has none.
    const tokenless = all.body.data.filter((r: { token_id: number | null }) => r.token_id === null);
    expect(tokenless.map((r: { reason: string; user_id: number }) => r.reason)).toEqual(['mcp_token_required']);
    expect(tokenless[0].user_id).toEqual(expect.any(Number));
    const future = await api().call('GET', '/api/admin/mcp-tool-call-audit?from=2999-01-01', { token: admin.token });
    expect(future.body.total).toBe(0);
    expect((await api().call('GET', '/api/admin/mcp-tool-call-audit?outcome=maybe', { token: admin.token })).status).toBe(422);
    // The other tenant's audit holds only its own calls.
    const acme = await api().call('GET', '/api/admin/mcp-tool-call-audit', { token: foreignAdmin.token });
    expect(acme.body.data.every((r: { token_id: number }) => r.token_id !== mcpTokenId)).toBe(true);
  });

  it('audits a call whose arguments hold NUL and lone surrogates (scrubbed), and runs it', async () => {
    // The edge refuses NUL in a JSON body over HTTP; the runner behind it must still audit any
    // content that reaches it, so the call is made on the runner itself.
    const runner = svc.app.get(McpToolRunner);
    const caller = { tenantId: 'default', userId: String(superAdmin.id), tokenId: String(mcpTokenId), scopes: ['mcp:read'] };
    const result = await runner.call(caller, 'kb-search', { query: 'signing\u0000 keys \ud800 rotate', 'note\u0000': 'x' });
    expect(result.isError).toBeUndefined();
    expect(parse(result).results.length).toBeGreaterThan(0);
    const [row] = await db.query(`SELECT outcome, reason, arguments FROM kb_mcp_tool_call_audit WHERE tool = 'kb-search' ORDER BY id DESC LIMIT 1`);
    expect(row).toEqual({ outcome: 'ok', reason: null, arguments: { query: 'signing\uFFFD keys \uFFFD rotate', 'note\uFFFD': 'x' } });
  });

  it('fails closed when the audit cannot be written: an audit_unavailable error, and the tool does not run', async () => {
    const client = await connect(mcpToken);
    const calls = llm.calls.length;
    // A real table that refuses every new row, as a full disk or a lost grant would.
    await db.query(`ALTER TABLE kb_mcp_tool_call_audit ADD CONSTRAINT closed_for_test CHECK (false) NOT VALID`);
    try {
      llm.reply({ content: JSON.stringify({ candidates: [] }) });
      const refused = await client.callTool({ name: 'kb-promotion-suggest', arguments: { transcript: 'ann: this must not reach the model' } });
      expect(refused.isError).toBe(true);
      expect(parse(refused).error.code).toBe('audit_unavailable');
      // The suggester would have asked the model: it was never asked.
      expect(llm.calls.length).toBe(calls);
    } finally {
      await db.query(`ALTER TABLE kb_mcp_tool_call_audit DROP CONSTRAINT closed_for_test`);
      await client.close();
    }
    const [row] = await db.query(`SELECT count(*)::int AS n FROM kb_mcp_tool_call_audit WHERE arguments::text LIKE '%must not reach%'`);
    expect(row.n).toBe(0);
  });

  it('disables a tool for the tenant: absent from tools/list, refused at tools/call', async () => {
    const servers = await api().call('GET', '/api/admin/mcp-servers', { token: superAdmin.token });
    expect(servers.body.data[0]).toMatchObject({ name: 'enterprise-kb', version: '2.0.0' });
    expect(servers.body.data[0].tools.find((t: { name: string }) => t.name === 'kb-promotion-suggest')).toMatchObject({ required_scope: 'mcp:tools:propose', enabled: true });

    const off = await api().call('PATCH', '/api/admin/mcp-servers/enterprise-kb/tools/kb-recent-changes', { token: superAdmin.token, body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ name: 'kb-recent-changes', enabled: false, required_scope: 'mcp:read' });
    expect((await api().call('PATCH', '/api/admin/mcp-servers/enterprise-kb/tools/kb-recent-changes', { token: superAdmin.token, body: { enabled: 'no' } })).status).toBe(422);
    expect((await api().call('PATCH', '/api/admin/mcp-servers/enterprise-kb/tools/kb-nothing', { token: superAdmin.token, body: { enabled: false } })).status).toBe(404);
    expect((await api().call('PATCH', '/api/admin/mcp-servers/other/tools/kb-search', { token: superAdmin.token, body: { enabled: false } })).status).toBe(404);

    const client = await connect(mcpToken);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('kb-recent-changes');
    const refused = await client.callTool({ name: 'kb-recent-changes', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(parse(refused).error.code).toBe('tool_disabled');
    await client.close();
    const [audit] = await db.query(`SELECT outcome, reason FROM kb_mcp_tool_call_audit WHERE tool = 'kb-recent-changes' ORDER BY id DESC LIMIT 1`);
    expect(audit).toEqual({ outcome: 'denied', reason: 'tool_disabled' });

    // Only this tenant: acme still has the tool.
    const acme = await issue({ label: 'acme lister' }, foreignAdmin);
    const foreign = await connect(acme.plain_token);
    expect((await foreign.listTools()).tools.map((t) => t.name)).toContain('kb-recent-changes');
    await foreign.close();

    await api().call('PATCH', '/api/admin/mcp-servers/enterprise-kb/tools/kb-recent-changes', { token: superAdmin.token, body: { enabled: true } });
    const again = await connect(mcpToken);
    expect((await again.listTools()).tools.map((t) => t.name)).toContain('kb-recent-changes');
    await again.close();
  });

  it('counts every message of a JSON-RPC batch against the limit: one batch cannot carry more than the minute allows', async () => {
    const t = await issue({ label: 'batching agent' });
    const batch = (n: number) => Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }));
    const post = async (body: unknown, token: string) => {
      const r = await fetch(url(), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      await r.text();
      return r;
    };
    const first = await post(batch(40), t.plain_token);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit')).toMatch(/^"mcp";r=20;t=\d+$/);
    const over = await post(batch(21), t.plain_token);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // A fresh token's single batch larger than the quota is refused as a whole.
    const big = await issue({ label: 'greedy agent' });
    expect((await post(batch(61), big.plain_token)).status).toBe(429);
  });

  it('throttles a token at 60 calls a minute', async () => {
    const t = await issue({ label: 'busy agent' });
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const statuses: number[] = [];
    const answers: Array<{ headers: Headers }> = [];
    for (let i = 0; i < 61; i++) {
      const r = await fetch(url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${t.plain_token}` },
        body: JSON.stringify(list),
      });
      await r.text();
      statuses.push(r.status);
      answers.push(r);
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect(answers[0].headers.get('ratelimit-policy')).toBe('"mcp";q=60;w=60');
    expect(answers[0].headers.get('ratelimit')).toMatch(/^"mcp";r=59;t=\d+$/);
    expect(answers[60].headers.get('ratelimit-policy')).toBe('"mcp";q=60;w=60');
    expect(answers[60].headers.get('ratelimit')).toMatch(/^"mcp";r=0;t=\d+$/);
    expect(Number(answers[60].headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token has its own budget.
    expect((await rpc(list, { authorization: `Bearer ${mcpToken}` })).status).toBe(200);
  });
});
