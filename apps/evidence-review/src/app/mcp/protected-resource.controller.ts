import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { AUTH_RESOURCE, AuthResource, DPOP_SIGNING_ALGS, protectedResourceMetadata, ProtectedResourceMetadata } from '@platform/auth';
import { SCOPES } from '@platform/contracts';
import { ApiPublic } from '@platform/runtime';

/** RFC 9728 protected resource metadata, as this service publishes it. */
class ProtectedResourceMetadataDto {
  @ApiProperty({ format: 'uri', description: 'OAUTH_RESOURCE' })
  resource!: string;

  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uri' } })
  authorization_servers!: string[];

  @ApiProperty({ type: [String], example: ['evidence:review'] })
  scopes_supported!: string[];

  @ApiProperty({ type: 'array', items: { type: 'string', enum: ['header'] } })
  bearer_methods_supported!: string[];

  @ApiPropertyOptional()
  resource_name?: string;

  @ApiPropertyOptional({ type: [String] })
  dpop_signing_alg_values_supported?: string[];

  @ApiPropertyOptional()
  dpop_bound_access_tokens_required?: boolean;
}

/**
 * RFC 9728 metadata of the MCP server: which authorization server (iam) issues tokens for it, the
 * scope it needs and its resource identifier (OAUTH_RESOURCE), which clients send iam as `resource`.
 * The gateway routes this one well-known path here; the rest of /.well-known is iam's.
 */
@ApiTags('mcp')
@ApiPublic()
@Controller('.well-known/oauth-protected-resource/evidence-risk-review/mcp')
export class ProtectedResourceController {
  constructor(@Inject(AUTH_RESOURCE) private readonly auth: AuthResource) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: 'RFC 9728 metadata of the MCP server: iam as authorization server, scope evidence:review, the resource identifier (OAUTH_RESOURCE)',
  })
  @ApiOkResponse({ description: 'Protected resource metadata; Cache-Control: public, max-age=300', type: ProtectedResourceMetadataDto })
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
