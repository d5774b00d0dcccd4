import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { dtoJsonSchema } from '@platform/observability';
import { createEvidenceMcpServer } from './evidence-mcp.server';
import { AssessInput, LabelTierInput } from './tool-inputs';

describe('the evidence-review MCP server', () => {
  const reviewed: unknown[] = [];
  const labelled: unknown[] = [];
  let client: Client;

  beforeAll(async () => {
    const reviews = { review: async (tenantId: string, args: unknown) => (reviewed.push([tenantId, args]), { verdict: 'pass' }) };
    const engine = { labelTier: (args: unknown) => (labelled.push(args), { tier: 'preprint' }), listProfiles: () => ({ profiles: {} }) };
    const [server, transport] = InMemoryTransport.createLinkedPair();
    await createEvidenceMcpServer(reviews as never, engine as never, 'tenant-a').connect(server);
    client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(() => client.close());

  const text = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as Array<{ text: string }>)[0].text;

  it('lists each tool with the JSON Schema derived from its input DTO', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.inputSchema])).toEqual([
      ['evidence_review.assess', dtoJsonSchema(AssessInput)],
      ['evidence_review.label_tier', dtoJsonSchema(LabelTierInput)],
      ['evidence_review.list_profiles', { type: 'object', properties: {} }],
    ]);
    expect(tools[1].inputSchema).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', minLength: 1 },
        url: { type: ['string', 'null'] },
        title: { type: ['string', 'null'] },
        snippet: { type: ['string', 'null'] },
        declared_tier: { type: ['string', 'null'] },
      },
      required: ['id'],
      additionalProperties: false,
    });
  });

  it('runs a tool with its validated arguments as plain data', async () => {
    const args = { artifact_id: 'a1', answer_text: 'x', question: null, claims: [{ id: 'c', text: 'It works.' }], options: { dry_run: true } };
    expect(JSON.parse(text(await client.callTool({ name: 'evidence_review.assess', arguments: args })))).toEqual({ verdict: 'pass' });
    expect(reviewed).toEqual([['tenant-a', args]]);
    await client.callTool({ name: 'evidence_review.label_tier', arguments: { id: 's', url: 'https://arxiv.org/abs/1' } });
    expect(labelled).toEqual([{ id: 's', url: 'https://arxiv.org/abs/1' }]);
  });

  it('refuses invalid or unknown arguments and unknown tools as tool errors (-32602)', async () => {
    const invalid = await client.callTool({ name: 'evidence_review.assess', arguments: { artifact_id: '', answer_text: 'x', claims: ['c'] } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/^MCP error -32602: Input validation error: Invalid arguments for tool evidence_review\.assess: artifact_id .*\n.* claims /);
    const unknown = await client.callTool({ name: 'evidence_review.label_tier', arguments: { id: 's', colour: 'red' } });
    expect([unknown.isError, text(unknown)]).toEqual([true, expect.stringContaining('property colour should not exist')]);
    expect(labelled).toHaveLength(1);
    const missing = await client.callTool({ name: 'evidence_review.nope', arguments: {} });
    expect([missing.isError, text(missing)]).toEqual([true, 'MCP error -32602: Tool evidence_review.nope not found']);
  });
});
