import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { KB_SERVER } from '../mcp-scopes';
import type { McpServersService } from '../servers/mcp-servers.service';
import type { McpCaller } from './mcp-caller';
import type { McpToolRunner } from './mcp-tool-runner';

/**
 * The `enterprise-kb` server for one request. The tool handlers are set on the underlying
 * protocol server rather than through registerTool: registerTool validates and strips the
 * arguments first, and the guardrails firewall has to judge (and audit) them as the client sent them.
 */
export function createKbMcpServer(caller: McpCaller, servers: McpServersService, runner: McpToolRunner): McpServer {
  const mcp = new McpServer({ name: KB_SERVER.name, version: KB_SERVER.version }, { capabilities: { tools: { listChanged: false } } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await servers.enabledTools(caller.tenantId)).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })),
  }));
  mcp.server.setRequestHandler(CallToolRequestSchema, (request) => runner.call(caller, request.params.name, request.params.arguments));
  return mcp;
}
