/** Permissions travel as OAuth scopes in iam's access tokens (ARCHITECTURE.md, gateway section). */
export const SCOPES = {
  clientsManage: 'iam:clients.manage',
  applicationsRead: 'iam:applications.read',
  guardrailsAdmin: 'guardrails:admin',
  evidenceReview: 'evidence:review',
  kbRead: 'kb:read',
  kbChat: 'kb:chat',
  /** kb-api's MCP server (/mcp/kb): read tools, and tools that propose changes for a human to approve. */
  mcpRead: 'mcp:read',
  mcpToolsPropose: 'mcp:tools:propose',
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];

export const ALL_SCOPES: readonly Scope[] = Object.values(SCOPES);
