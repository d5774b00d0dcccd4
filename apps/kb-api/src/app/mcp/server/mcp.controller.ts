import { Controller, Delete, Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Response } from 'express';
import { Public } from '../../auth/gates';
import { McpServersService } from '../servers/mcp-servers.service';
import { createKbMcpServer } from './kb-mcp.server';
import { McpAuthGuard } from './mcp-auth.guard';
import { McpRequest } from './mcp-caller';
import { McpToolRunner } from './mcp-tool-runner';
import { ApiBody, ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { ErrorBody, MessageBody } from '../../api-docs';
import { KB_SERVER, MCP_CALLS_PER_MINUTE } from '../mcp-scopes';
import { McpJsonRpcRequestDto, McpJsonRpcResponseDto } from '../mcp-responses.dto';

const ApiNotAllowed = () =>
  ApiResponse({ status: 405, description: 'The server is stateless: no stream, no session (`Allow: POST`)', type: McpJsonRpcResponseDto });

/**
 * /mcp/kb: JSON-RPC over streamable HTTP, stateless (a server and transport per POST, which costs
 * a few objects). The KB guard stands aside (@Public); McpAuthGuard authenticates instead.
 */
@ApiTags('MCP')
@ApiExtraModels(McpJsonRpcRequestDto)
@Controller('mcp/kb')
@Public()
export class McpController {
  constructor(
    private readonly servers: McpServersService,
    private readonly runner: McpToolRunner,
  ) {}

  @Post()
  @ApiOperation({
    summary: `The ${KB_SERVER.name} ${KB_SERVER.version} MCP server: JSON-RPC over streamable HTTP (initialize, tools/list, tools/call)`,
    description: [
      'Stateless: no Mcp-Session-Id; send `Accept: application/json, text/event-stream`.',
      "Authentication: `Authorization: Bearer mcp_…` (a tenant MCP token; the caller acts in the token's tenant),",
      "an iam access token whose aud names OAUTH_RESOURCE or JWT_AUDIENCE (`Bearer`, or `DPoP` with a `DPoP` proof when the token is bound; the caller acts as the linked KB user in that user's tenant with the token's mcp:* scopes),",
      'or a personal access token / session, which may initialize and list tools only.',
      "Every tools/call needs a tenant MCP token or iam token carrying the tool's scope, passes the guardrails tool firewall and is audited.",
      'A 401, and a 403 mcp_scope_missing, carry `WWW-Authenticate: Bearer …, resource_metadata="…"` (plus a DPoP challenge).',
      `Throttle: ${MCP_CALLS_PER_MINUTE} messages a minute per token (each message of a batch counts).`,
    ].join(' '),
  })
  @ApiBody({
    required: true,
    schema: { oneOf: [{ $ref: getSchemaPath(McpJsonRpcRequestDto) }, { type: 'array', items: { $ref: getSchemaPath(McpJsonRpcRequestDto) } }] },
  })
  @ApiResponse({
    status: 200,
    description: 'JSON-RPC result; a tool result is `{content:[{type:"text", text:"<JSON>"}], isError?}`',
    type: McpJsonRpcResponseDto,
  })
  @ApiResponse({ status: 202, description: 'A notification (no id) was accepted' })
  @ApiResponse({
    status: 401,
    description:
      '`{message:"Unauthenticated."}` without a credential; `{error: mcp_token_required | mcp_token_invalid | invalid_token | invalid_dpop_proof, message}`',
    type: ErrorBody,
  })
  @ApiResponse({
    status: 403,
    description:
      '`{error: mcp_token_revoked | mcp_token_expired | mcp_tenant_mismatch | identity_not_linked | tenant_suspended | csrf_token_mismatch, message}`, or `{error:"mcp_scope_missing", message, required_scope}`',
    type: ErrorBody,
  })
  @ApiResponse({ status: 422, description: '`{error:"tool_name_required", message}`: a tools/call without params.name; `{error:"tool_arguments_invalid", message}`: params.arguments present but not an object', type: ErrorBody })
  @ApiResponse({ status: 429, description: 'Throttled `{message}` with Retry-After', type: MessageBody })
  @UseGuards(McpAuthGuard)
  async handle(@Req() req: McpRequest, @Res() res: Response): Promise<void> {
    const server = createKbMcpServer(req.mcpCaller!, this.servers, this.runner);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** A stateless server has no stream to resume and no session to end. */
  @Get()
  @ApiOperation({ summary: 'No server-to-client stream (stateless server)' })
  @ApiNotAllowed()
  stream(@Res() res: Response): void {
    notAllowed(res);
  }

  @Delete()
  @ApiOperation({ summary: 'No session to end (stateless server)' })
  @ApiNotAllowed()
  end(@Res() res: Response): void {
    notAllowed(res);
  }
}

function notAllowed(res: Response): void {
  res.status(405).setHeader('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
}
