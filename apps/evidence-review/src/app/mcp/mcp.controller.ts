import { All, Controller, Delete, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CurrentPrincipal, JwtAuthGuard, Principal, ProtectedResource, RequireScopes } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import { ReviewEngine } from '@platform/evidence-engine';
import type { Request, Response } from 'express';
import { ApiEvidenceError, ApiEvidenceGuarded } from '../reviews/dto/error-body.dto';
import { ReviewsService } from '../reviews/reviews.service';
import { createEvidenceMcpServer } from './evidence-mcp.server';

/**
 * MCP over streamable HTTP at /evidence-risk-review/mcp, stateless, behind the same auth: Bearer or
 * DPoP-bound iam tokens whose `aud` names this service. Its 401/403 challenges point to the RFC 9728
 * metadata, so a client that has no token yet learns where to get one.
 */
@ApiTags('mcp')
@Controller('evidence-risk-review/mcp')
@UseGuards(JwtAuthGuard)
@ProtectedResource()
@RequireScopes(SCOPES.evidenceReview)
export class McpController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly engine: ReviewEngine,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiEvidenceGuarded()
  @ApiOperation({
    summary: 'MCP over streamable HTTP (tools assess, label_tier, list_profiles)',
    description:
      "Stateless JSON-RPC. Bearer, or DPoP with a proof for a DPoP-bound token; the token's aud must name OAUTH_RESOURCE (or JWT_AUDIENCE). 401/403 carry WWW-Authenticate with resource_metadata.",
  })
  @ApiOkResponse({ description: 'JSON-RPC response', schema: { type: 'object' } })
  async post(@Req() req: Request, @Res() res: Response, @CurrentPrincipal() principal: Principal): Promise<void> {
    const server = createEvidenceMcpServer(this.reviews, this.engine, principal.tenantId ?? 'default');
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /**
   * A stateless server pushes nothing and keeps no session, so GET and DELETE are refused (MCP
   * Streamable HTTP), as kb's /mcp/kb refuses them. Handed to the transport, a GET opened an event
   * stream that only ever sent keepalives, each holding one of the gateway's upstream connections
   * until the pool was exhausted.
   */
  @Get()
  @ApiEvidenceGuarded()
  @ApiOperation({ summary: 'No server-to-client stream (stateless server): 405 with `Allow: POST`' })
  @ApiEvidenceError(405, 'The server is stateless: no stream to open (`Allow: POST`)')
  stream(@Req() req: Request, @Res() res: Response): void {
    notAllowed(req, res);
  }

  @Delete()
  @ApiEvidenceGuarded()
  @ApiOperation({ summary: 'No session to end (stateless server): 405 with `Allow: POST`' })
  @ApiEvidenceError(405, 'The server is stateless: no session to end (`Allow: POST`)')
  end(@Req() req: Request, @Res() res: Response): void {
    notAllowed(req, res);
  }

  /** Any other method (PUT, PATCH, …): none reaches the transport, only POST does. */
  @All()
  @ApiExcludeEndpoint()
  other(@Req() req: Request, @Res() res: Response): void {
    notAllowed(req, res);
  }
}

/** 405 in the area's error body, naming the one method the endpoint takes. */
function notAllowed(req: Request, res: Response): void {
  res
    .status(405)
    .setHeader('Allow', 'POST')
    .json({
      error: {
        code: 'method_not_allowed',
        message: `${req.method} is not allowed here: the MCP server is stateless (no stream to open, no session to end); send JSON-RPC messages with POST.`,
        details: [],
      },
    });
}
