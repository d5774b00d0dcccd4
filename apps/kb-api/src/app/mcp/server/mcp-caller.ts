import type { KbRequest } from '../../auth/kb-principal';

/** Who calls /mcp/kb, as McpAuthGuard established it. */
export interface McpCaller {
  tenantId: string;
  userId: string | null;
  /** The tenant MCP token, when the caller presented one (tools/call needs it). */
  tokenId: string | null;
  /** The token's scopes; null for a session or personal access token caller. */
  scopes: string[] | null;
}

export type McpRequest = KbRequest & { mcpCaller?: McpCaller };
