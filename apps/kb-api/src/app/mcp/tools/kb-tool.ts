import type { Type } from '@nestjs/common';
import { dtoJsonSchema, errorsByField, FieldError, JsonSchemaObject, validateDto, ValidationFailedError } from '@platform/observability';
import type { McpScope } from '../mcp-scopes';

/** Who a tool runs for: the token's tenant (tools never read another tenant). */
export interface ToolContext {
  tenantId: string;
}

/** One tool of the built-in server: its input DTO (validated after the firewall), the scope tools/call needs, the use case. */
export interface KbTool {
  name: string;
  description: string;
  scope: McpScope;
  input: Type<object>;
  /** JSON schema derived from `input`, computed once (the firewall caches its validators by schema object). */
  inputSchema: JsonSchemaObject;
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<unknown>;
}

/** Declares a tool whose handler sees its arguments validated and transformed into its input DTO. */
export function defineTool<I extends object>(t: {
  name: string;
  description: string;
  scope: McpScope;
  input: Type<I>;
  run(ctx: ToolContext, args: I): Promise<unknown>;
}): KbTool {
  return { ...t, inputSchema: dtoJsonSchema(t.input), run: async (ctx, args) => t.run(ctx, await parseArguments(t.input, args)) };
}

async function parseArguments<I extends object>(input: Type<I>, args: Record<string, unknown>): Promise<I> {
  try {
    return await validateDto(input, args);
  } catch (e) {
    if (e instanceof ValidationFailedError) throw new InvalidToolArguments(e.errors);
    throw e;
  }
}

/** Arguments the tool's input DTO refuses, mapped to an `invalid_arguments` tool error by the runner. */
export class InvalidToolArguments extends Error {
  /** The first problem of each argument (`_arguments` for the arguments as a whole). */
  readonly errors: Record<string, string>;

  constructor(problems: FieldError[]) {
    super('The tool arguments are invalid.');
    // Own keys whatever the argument's name (`toString`, `__proto__`): never an inherited member.
    this.errors = Object.fromEntries(Object.entries(errorsByField(problems.map((p) => ({ field: p.field || '_arguments', message: p.message })))).map(([field, messages]) => [field, messages[0]!]));
  }
}

/** A tool's answer for a missing row, mapped to a tool error result by the runner. */
export class ToolNotFound extends Error {
  constructor(readonly what: string) {
    super(`${what} not found.`);
  }
}
