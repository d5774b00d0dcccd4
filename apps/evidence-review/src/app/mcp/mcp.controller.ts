import { All, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CurrentPrincipal, JwtAuthGuard, Principal, ProtectedResource, RequireScopes } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import { ReviewEngine } from '@platform/evidence-engine';
import type { Request, Response } from 'express';
import { ApiEvidenceGuarded } from '../reviews/dto/error-body.dto';
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
  post(@Req() req: Request, @Res() res: Response, @CurrentPrincipal() principal: Principal): Promise<void> {
    return this.handle(req, res, principal);
  }

  /** Other methods reach the transport too, which answers them as the MCP spec says (not documented: no client needs them). */
  @All()
  @ApiExcludeEndpoint()
  async handle(@Req() req: Request, @Res() res: Response, @CurrentPrincipal() principal: Principal): Promise<void> {
    const server = createEvidenceMcpServer(this.reviews, this.engine, principal.tenantId ?? 'default');
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }
}
