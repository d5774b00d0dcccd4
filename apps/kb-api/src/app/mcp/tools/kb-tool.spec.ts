import { z } from 'zod';
import { defineTool } from './kb-tool';

describe('defineTool', () => {
  const tool = defineTool({
    name: 'kb-example',
    description: 'Example',
    scope: 'mcp:read',
    input: z.object({ query: z.string().min(2), limit: z.number().int().min(1).max(20).default(6) }),
    run: async (_ctx, a) => a,
  });

  it('publishes the input as a plain JSON schema (no dialect), optional defaults included', () => {
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { query: { type: 'string', minLength: 2 }, limit: { type: 'integer', minimum: 1, maximum: 20, default: 6 } },
      required: ['query'],
    });
  });

  it('runs with parsed arguments and refuses bad ones', async () => {
    await expect(tool.run({ tenantId: 't' }, { query: 'keys' })).resolves.toEqual({ query: 'keys', limit: 6 });
    await expect(tool.run({ tenantId: 't' }, { query: 'k', limit: 99 })).rejects.toBeInstanceOf(z.ZodError);
  });
});
