import { Controller, Get, Header, Inject } from '@nestjs/common';
import { AUTH_RESOURCE, AuthResource, DPOP_SIGNING_ALGS, protectedResourceMetadata, ProtectedResourceMetadata } from '@platform/auth';
import { Public } from '../../auth/gates';
import { KB_SERVER, MCP_SCOPES } from '../mcp-scopes';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiNoAuth } from '../../api-docs';
import { ProtectedResourceMetadataDto } from '../mcp-responses.dto';

/**
 * RFC 9728 metadata of /mcp/kb: iam as its authorization server, the MCP scopes and the resource
 * identifier (OAUTH_RESOURCE) a client asks iam for. The gateway routes this one well-known path
 * here; the rest of /.well-known is iam's.
 */
@ApiTags('MCP')
@Controller('.well-known/oauth-protected-resource/mcp/kb')
@Public()
export class ProtectedResourceController {
  constructor(@Inject(AUTH_RESOURCE) private readonly auth: AuthResource) {}

  @Get()
  @ApiNoAuth()
  @ApiOperation({
    summary:
      'RFC 9728 metadata of /mcp/kb: iam as authorization server, the MCP scopes, the resource identifier (OAUTH_RESOURCE); no token',
  })
  @ApiOkResponse({ description: 'Protected resource metadata; Cache-Control: public, max-age=300', type: ProtectedResourceMetadataDto })
  @Header('Cache-Control', 'public, max-age=300')
  metadata(): ProtectedResourceMetadata {
    return protectedResourceMetadata({
      resource: this.auth.resource!,
      authorizationServer: this.auth.issuer,
      scopes: MCP_SCOPES,
      resourceName: `Knowledge base (MCP server ${KB_SERVER.name})`,
      dpopAlgorithms: DPOP_SIGNING_ALGS,
    });
  }
}
