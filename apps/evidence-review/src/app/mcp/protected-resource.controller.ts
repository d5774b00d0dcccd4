import { Controller, Get, Header, Inject } from '@nestjs/common';
import { AUTH_RESOURCE, AuthResource, DPOP_SIGNING_ALGS, protectedResourceMetadata, ProtectedResourceMetadata } from '@platform/auth';
import { SCOPES } from '@platform/contracts';

/**
 * RFC 9728 metadata of the MCP server: which authorization server (iam) issues tokens for it, the
 * scope it needs and its resource identifier (OAUTH_RESOURCE), which clients send iam as `resource`.
 * The gateway routes this one well-known path here; the rest of /.well-known is iam's.
 */
@Controller('.well-known/oauth-protected-resource/evidence-risk-review/mcp')
export class ProtectedResourceController {
  constructor(@Inject(AUTH_RESOURCE) private readonly auth: AuthResource) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  metadata(): ProtectedResourceMetadata {
    return protectedResourceMetadata({
      resource: this.auth.resource!,
      authorizationServer: this.auth.issuer,
      scopes: [SCOPES.evidenceReview],
      resourceName: 'Evidence risk review (MCP)',
      dpopAlgorithms: DPOP_SIGNING_ALGS,
    });
  }
}
