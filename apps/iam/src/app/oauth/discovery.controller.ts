import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DPOP_SIGNING_ALGS } from '@platform/auth';
import { ApiPublic } from '@platform/runtime';
import { DiscoveryDocument } from './dto/discovery.response';
import { ResourceIndicators } from './resource-indicators';
import { UnregisteredClientPolicy } from '../registration/unregistered-client-policy';
import { SCOPE_CATALOG } from './scopes';
import { TokenIssuer } from './token-issuer.service';
import { IamConfig } from '../../config/iam-config';

/** OpenID Provider / RFC 8414 metadata; both well-known URLs serve the same document. */
@ApiTags('Discovery')
@Controller('.well-known')
export class DiscoveryController {
  constructor(
    private readonly issuer: TokenIssuer,
    private readonly unregistered: UnregisteredClientPolicy,
    private readonly resources: ResourceIndicators,
    private readonly config: IamConfig,
  ) {}

  private document(): DiscoveryDocument {
    const iss = this.issuer.issuer;
    return {
      issuer: iss,
      authorization_endpoint: `${iss}/oauth/authorize`,
      token_endpoint: `${iss}/oauth/token`,
      pushed_authorization_request_endpoint: `${iss}/oauth/par`,
      // Global setting; a client can also require PAR for itself (RFC 9126 §5, §6).
      require_pushed_authorization_requests: this.config.get('OAUTH_REQUIRE_PAR'),
      userinfo_endpoint: `${iss}/oauth/userinfo`,
      revocation_endpoint: `${iss}/oauth/revoke`,
      introspection_endpoint: `${iss}/oauth/introspect`,
      jwks_uri: `${iss}/.well-known/jwks.json`,
      scopes_supported: [...SCOPE_CATALOG],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'client_credentials', 'refresh_token'],
      response_modes_supported: ['query'],
      authorization_response_iss_parameter_supported: true,
      claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'acr', 'amr', 'at_hash', 'sid', 'email', 'name'],
      // aal3 is never issued (no attestation check of authenticators; see docs/iam.md).
      acr_values_supported: ['aal1', 'aal2'],
      prompt_values_supported: ['none', 'login', 'consent'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
      token_endpoint_auth_signing_alg_values_supported: ['ES256'],
      code_challenge_methods_supported: ['S256'],
      // Clients that were never registered (docs/iam.md): each only while its policy turns it on.
      ...(this.unregistered.registrationEnabled ? { registration_endpoint: `${iss}/oauth/register` } : {}),
      client_id_metadata_document_supported: this.unregistered.metadataDocumentsEnabled,
      dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGS],
      // RFC 8707 defines no metadata of its own: this names the `resource` values accepted (each
      // resource also points here through its RFC 9728 metadata).
      resource_indicators_supported: true,
      resources_supported: [...this.resources.known],
    };
  }

  @Get('openid-configuration')
  @ApiPublic()
  @ApiOperation({ summary: 'OpenID Provider / RFC 8414 authorization server metadata (both URLs serve the same document)' })
  @ApiOkResponse({ description: 'The metadata; Cache-Control: public, max-age=300', type: DiscoveryDocument })
  @Header('Cache-Control', 'public, max-age=300')
  openid() {
    return this.document();
  }

  @Get('oauth-authorization-server')
  @ApiPublic()
  @ApiOperation({ summary: 'OpenID Provider / RFC 8414 authorization server metadata (both URLs serve the same document)' })
  @ApiOkResponse({ description: 'The metadata; Cache-Control: public, max-age=300', type: DiscoveryDocument })
  @Header('Cache-Control', 'public, max-age=300')
  oauthServer() {
    return this.document();
  }
}
