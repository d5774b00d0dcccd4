/** Scopes a tenant MCP token can carry; `mcp.scope` checks them at tools/call only. */
export const MCP_SCOPES = ['mcp:read', 'mcp:tools:propose'] as const;
export type McpScope = (typeof MCP_SCOPES)[number];
/** A token issued without `scopes` gets every scope above. */
export const DEFAULT_MCP_SCOPES: readonly McpScope[] = MCP_SCOPES;

/** The built-in server every tenant has. */
export const KB_SERVER = { name: 'enterprise-kb', version: '2.0.0' } as const;

/** `throttle:api` on /mcp/kb: requests per caller (token, else user) per minute. */
export const MCP_CALLS_PER_MINUTE = 60;
export const MCP_RATE_POLICY = { name: 'mcp', quota: MCP_CALLS_PER_MINUTE, windowSec: 60 } as const;
