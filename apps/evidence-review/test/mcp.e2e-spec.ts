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

  // A JSON-RPC answer (one message, or a list for a batch), read loosely.
  const rpc = async (token: string, body: unknown): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const r = await fetch(`${svc.url}/evidence-risk-review/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(body),
    });
    expect(r.status).toBe(200);
    return r.json();
  };
  const toolCall = (params: unknown) => ({ jsonrpc: '2.0', id: 5, method: 'tools/call', params });

  // The SDK parsed these before any handler and answered -32603 with its validator's issue dump.
  it.each([
    [null, 'null'],
    [[], 'an array'],
    ['x', 'a string'],
  ])('refuses tools/call arguments %j as invalid arguments (-32602), never a validator dump', async (args, kind) => {
    const token = await issuer.mint({ scope: 'evidence:review' });
    const answer = await rpc(token, toolCall({ name: 'evidence_review.assess', arguments: args }));
    expect(answer).toEqual({
      jsonrpc: '2.0',
      id: 5,
      result: {
        content: [{ type: 'text', text: `MCP error -32602: Input validation error: Invalid arguments for tool evidence_review.assess: arguments must be an object, not ${kind}.` }],
        isError: true,
      },
    });
  });

  it('answers other malformed requests with -32602 in plain words, and the rest of a batch as usual', async () => {
    const token = await issuer.mint({ scope: 'evidence:review' });
    expect(await rpc(token, toolCall({ arguments: {} }))).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32602, message: 'Invalid tools/call request: params.name: Invalid input: expected string, received undefined' },
    });
    expect(await rpc(token, { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { cursor: 5 } })).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: { code: -32602, message: 'Invalid tools/list request: params.cursor: Invalid input: expected string, received number' },
    });
    const [refused, listed] = await rpc(token, [toolCall({ name: 'evidence_review.assess', arguments: null }), { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'evidence_review.list_profiles' } }]);
    expect(refused).toMatchObject({ id: 5, result: { isError: true } });
    expect(listed).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: expect.stringContaining('"profiles"') }] } });
  });

  it('names an invalid argument value inside an argument object in plain words', async () => {
    const token = await issuer.mint({ scope: 'evidence:review' });
    const text = async (args: unknown) => {
      const answer = await rpc(token, toolCall({ name: 'evidence_review.assess', arguments: args }));
      expect(answer.result.isError).toBe(true);
      return answer.result.content[0].text as string;
    };
    expect(await text({ artifact_id: 'a', answer_text: 'x', claims: 'nope' })).toBe(
      'MCP error -32602: Input validation error: Invalid arguments for tool evidence_review.assess: claims must be an array\neach value in claims must be an object',
    );
    expect(JSON.parse(await text({ artifact_id: 'a', answer_text: 'x', claims: [{ id: 'c', text: 't', assertiveness: 'very' }] }))).toEqual({
      error: {
        code: 'validation_error',
        message: 'Invalid review request: Expected one of definitive, likely, tentative at [claims.0.assertiveness].',
        details: [{ path: 'claims.0.assertiveness', message: 'Expected one of definitive, likely, tentative at [claims.0.assertiveness].' }],
      },
    });
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
