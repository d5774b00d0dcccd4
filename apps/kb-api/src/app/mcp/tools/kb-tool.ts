import { z } from 'zod';
import type { McpScope } from '../mcp-scopes';

/** Who a tool runs for: the token's tenant (tools never read another tenant). */
export interface ToolContext {
  tenantId: string;
}

/** One tool of the built-in server: zod input (parsed after the firewall), the scope tools/call needs, the use case. */
export interface KbTool {
  name: string;
  description: string;
  scope: McpScope;
  input: z.ZodObject;
  /** JSON schema of `input`, computed once (the firewall caches its validators by schema object). */
  inputSchema: Record<string, unknown>;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<unknown>;
}

/** Declares a tool whose handler sees its parsed, typed arguments. */
export function defineTool<S extends z.ZodObject>(t: {
  name: string;
  description: string;
  scope: McpScope;
  input: S;
  run(ctx: ToolContext, args: z.output<S>): Promise<unknown>;
}): KbTool {
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(t.input, { io: 'input' }) as Record<string, unknown>;
  return { ...t, inputSchema, run: async (ctx, args) => t.run(ctx, t.input.parse(args)) };
}

/** A tool's answer for a missing row, mapped to a tool error result by the runner. */
export class ToolNotFound extends Error {
  constructor(readonly what: string) {
    super(`${what} not found.`);
  }
}
