import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { RunningService, TestJwksIssuer } from '@platform/testing';
import { startEvidenceWithIssuer } from './evidence-test-env';

describe('evidence-review MCP tools over streamable HTTP (official SDK client)', () => {
  let issuer: TestJwksIssuer;
  let svc: RunningService;

  const connect = async (token: string) => {
    const client = new Client({ name: 'test-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/evidence-risk-review/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  };
  const parse = (r: Awaited<ReturnType<Client['callTool']>>) => JSON.parse((r.content as Array<{ text: string }>)[0].text);

  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ issuer, svc, stop } = await startEvidenceWithIssuer({ EVIDENCE_API_ENABLED: 'true' }));
  });

  afterAll(() => stop());

  it('lists the three tools', async () => {
    const client = await connect(await issuer.mint({ scope: 'evidence:review' }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['evidence_review.assess', 'evidence_review.label_tier', 'evidence_review.list_profiles']);
    await client.close();
  });

  it('assesses an artifact, labels a tier and lists profiles', async () => {
    const client = await connect(await issuer.mint({ scope: 'evidence:review', extra: { tenant_id: 'mcp-tenant' } }));
    const review = parse(
      await client.callTool({
        name: 'evidence_review.assess',
        arguments: {
          artifact_id: 'm1',
          answer_text: 'x',
          claims: [{ id: 'c', text: 'It always works.' }],
          sources: [{ id: 's', url: 'https://arxiv.org/abs/1' }],
          options: { dry_run: true },
        },
      }),
    );
    expect(review).toMatchObject({ artifact_id: 'm1', verdict: 'soften', metadata: { dry_run: true } });
    // The same tier object as the HTTP answer and /taxonomy.
    expect(review.source_tiers).toEqual({ s: { key: 'preprint', rank: 65, label: 'Preprint', builtin: true } });
    expect(parse(await client.callTool({ name: 'evidence_review.label_tier', arguments: { id: 's', url: 'https://arxiv.org/abs/1' } }))).toEqual({ tier: 'preprint' });
    expect(Object.keys(parse(await client.callTool({ name: 'evidence_review.list_profiles', arguments: {} })).profiles)).toHaveLength(5);
    await client.close();
  });

  it('returns review errors as tool errors with the error body', async () => {
    const client = await connect(await issuer.mint({ scope: 'evidence:review' }));
    const r = await client.callTool({ name: 'evidence_review.assess', arguments: { artifact_id: 'm2', answer_text: 'x', options: { profile_key: 'tarot' } } });
    expect(r.isError).toBe(true);
    expect(parse(r).error.code).toBe('unknown_profile');
    await client.close();
  });

  it('answers assess arguments holding a lone UTF-16 surrogate as a client error, not internal_error', async () => {
    const client = await connect(await issuer.mint({ scope: 'evidence:review' }));
    try {
      // The platform's edge refuses the body before the MCP server parses it: a 422 naming the field.
      const call = client.callTool({ name: 'evidence_review.assess', arguments: { artifact_id: 'm3', answer_text: 'x \ud800' } });
      await expect(call).rejects.toThrow(/validation_error.*body\.params\.arguments\.answer_text: must be valid Unicode text/);
    } finally {
      await client.close();
    }
  });

  // A stateless server has no server-to-client stream and no session: GET used to open an event
  // stream of keepalives that never ended (one gateway upstream connection each).
  it.each(['GET', 'DELETE', 'PUT'])('answers %s with 405 Allow: POST in the error body, never an open stream', async (method) => {
    const token = await issuer.mint({ scope: 'evidence:review' });
    const r = await fetch(`${svc.url}/evidence-risk-review/mcp`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' },
      signal: AbortSignal.timeout(5000),
    });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await r.json()).toEqual({ error: { code: 'method_not_allowed', message: expect.stringContaining(`${method} is not allowed here`), details: [] } });
  });

  it('still authenticates before refusing a method', async () => {
    const r = await fetch(`${svc.url}/evidence-risk-review/mcp`, { headers: { accept: 'application/json, text/event-stream' }, signal: AbortSignal.timeout(5000) });
    expect(r.status).toBe(401);
    await r.body?.cancel();
  });

  it('refuses callers without a token or without evidence:review', async () => {
    const noScope = await issuer.mint({ scope: 'kb:read' });
    await expect(connect(noScope)).rejects.toThrow();
    const r = await fetch(`${svc.url}/evidence-risk-review/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(401);
  });
});
