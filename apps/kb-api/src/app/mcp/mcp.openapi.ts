/** OpenAPI paths and schemas of KbMcpModule, merged into the kb-api document by ../openapi.ts. */
export const MCP_PATHS: Record<string, object> = {};
export const MCP_SCHEMAS: Record<string, object> = {};
