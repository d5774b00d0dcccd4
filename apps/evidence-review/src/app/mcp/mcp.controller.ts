import { All, Controller, Req, Res, UseGuards } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CurrentPrincipal, JwtAuthGuard, Principal, ProtectedResource, RequireScopes } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import { ReviewEngine } from '@platform/evidence-engine';
import type { Request, Response } from 'express';
import { ReviewsService } from '../reviews/reviews.service';
import { createEvidenceMcpServer } from './evidence-mcp.server';

/**
 * MCP over streamable HTTP at /evidence-risk-review/mcp, stateless, behind the same auth: Bearer or
 * DPoP-bound iam tokens whose `aud` names this service. Its 401/403 challenges point to the RFC 9728
 * metadata, so a client that has no token yet learns where to get one.
 */
@Controller('evidence-risk-review/mcp')
@UseGuards(JwtAuthGuard)
@ProtectedResource()
@RequireScopes(SCOPES.evidenceReview)
export class McpController {
  constructor(
    private readonly reviews: ReviewsService,
    private readonly engine: ReviewEngine,
  ) {}

  @All()
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
