import { JsonSchema } from '../shared/json-schema';

/** A tool as a model sees it (MCP-style): its arguments are declared by a JSON object schema. */
export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema?: JsonSchema;
}

/** The caller's identity: owner keys are overwritten with it. Null when unauthenticated. */
export type PrincipalId = string | number | null;

export interface ToolCall {
  tool: ToolDefinition;
  arguments: unknown;
  principalId: PrincipalId;
  /** v1.x addition: recorded with a parked call, where the host knows it. */
  tenantId?: string | null;
}

/** The tool's declared properties (none when it declares no schema: then every argument is unknown). */
export function declaredProperties(tool: ToolDefinition): Record<string, JsonSchema> {
  const properties = tool.inputSchema?.['properties'];
  return properties !== null && typeof properties === 'object' && !Array.isArray(properties)
    ? (properties as Record<string, JsonSchema>)
    : {};
}
