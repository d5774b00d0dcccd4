import { dtoJsonSchema } from '@platform/observability';
import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';
import { defineTool, InvalidToolArguments } from './kb-tool';
import { KbToolCatalogue } from './kb-tool-catalogue';
import { KbSearchInput } from './kb-tool-inputs';

class ExampleInput {
  @IsString() @MinLength(2) query!: string;
  @IsInt() @Min(1) @Max(20) limit = 6;
}

/** ExampleInput with one limit changed. */
class WiderExampleInput extends ExampleInput {
  @IsInt() @Min(1) @Max(50) override limit = 6;
}

const example = (input: typeof ExampleInput) => defineTool({ name: 'kb-example', description: 'Example', scope: 'mcp:read', input, run: async (_ctx, a) => a });

describe('defineTool', () => {
  const tool = example(ExampleInput);

  it('publishes the JSON schema derived from the input DTO (no dialect), defaults included', () => {
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { query: { type: 'string', minLength: 2 }, limit: { type: 'integer', minimum: 1, maximum: 20, default: 6 } },
      required: ['query'],
      additionalProperties: false,
    });
  });

  it('follows a limit changed in the DTO', () => {
    expect(example(WiderExampleInput).inputSchema['properties']).toMatchObject({ limit: { maximum: 50 } });
  });

  it('runs with validated arguments and refuses bad or unknown ones, each by argument', async () => {
    await expect(tool.run({ tenantId: 't' }, { query: 'keys' })).resolves.toEqual({ query: 'keys', limit: 6 });
    const refused = await tool.run({ tenantId: 't' }, { query: 'k', limit: 99, extra: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidToolArguments);
    expect(Object.keys((refused as InvalidToolArguments).errors)).toEqual(['extra', 'query', 'limit']);
  });

  it('refuses arguments named after Object.prototype members by name, as any unknown one', async () => {
    for (const json of ['{"query":"keys","toString":1}', '{"query":"keys","constructor":{}}', '{"query":"keys","__proto__":{"limit":1}}']) {
      const args = JSON.parse(json) as Record<string, unknown>;
      const name = Object.keys(args)[1];
      const refused = (await tool.run({ tenantId: 't' }, args).catch((e: unknown) => e)) as InvalidToolArguments;
      expect([json, refused]).toEqual([json, expect.any(InvalidToolArguments)]);
      expect([json, Object.keys(refused.errors)]).toEqual([json, [name]]);
    }
  });
});

describe('KbToolCatalogue', () => {
  const config = { get: () => true } as never;
  const catalogue = new KbToolCatalogue({} as never, {} as never, {} as never, {} as never, config);

  it("publishes each tool's schema as derived from its input DTO", () => {
    for (const tool of catalogue.tools) expect([tool.name, tool.inputSchema]).toEqual([tool.name, dtoJsonSchema(tool.input)]);
  });

  it('keeps the published arguments, limits, descriptions and defaults', () => {
    expect(catalogue.find('kb-search')).toMatchObject({ input: KbSearchInput });
    expect(catalogue.find('kb-search')!.inputSchema).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 2, maxLength: 500, description: 'What to look for, in natural language or keywords' },
        project_key: { type: 'string', minLength: 1, maxLength: 120, description: 'Project key, e.g. "platform"' },
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 6 },
      },
      required: ['query'],
      additionalProperties: false,
    });
    expect(catalogue.find('kb-graph-neighbors')!.inputSchema['properties']).toMatchObject({
      node_uid: { type: 'string', minLength: 1, maxLength: 200, description: 'The document slug' },
      edge_types: { type: 'array', minItems: 1, items: { type: 'string', enum: ['links_to', 'linked_from'] } },
    });
    expect(catalogue.find('kb-read-chunk')!.inputSchema['properties']).toEqual({ chunk_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } });
  });

  it('trims, fills defaults and refuses null for an optional argument', async () => {
    const byType = catalogue.find('kb-documents-by-type')!;
    const seen: unknown[] = [];
    const knowledge = { byType: async (...a: unknown[]) => (seen.push(a), []) };
    const withRepo = new KbToolCatalogue({} as never, {} as never, knowledge as never, {} as never, config);
    await withRepo.find('kb-documents-by-type')!.run({ tenantId: 't' }, { type: 'runbook', project_key: ' platform ' });
    expect(seen).toEqual([['t', 'platform', 'runbook', 'accepted', 20]]);
    await expect(byType.run({ tenantId: 't' }, { type: 'memo', project_key: 'platform' })).rejects.toBeInstanceOf(InvalidToolArguments);
    await expect(catalogue.find('kb-recent-changes')!.run({ tenantId: 't' }, { project_key: null })).rejects.toBeInstanceOf(InvalidToolArguments);
  });
});
