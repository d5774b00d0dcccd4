import { Body, Controller, Headers, HttpCode, Post, Res, UseFilters, UseGuards } from '@nestjs/common';
import { SecretHasher } from '@platform/crypto';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiClientAuthentication, ApiFormBody, ApiOAuthError, ApiOAuthRateLimited, CLIENT_AUTHENTICATION } from '../api-docs';
import { IntrospectionResponse } from './dto/token.response';
import { TokenHintForm } from './dto/token-hint.form';
import { checkForm, readParameters } from './form';
import { decodeJwt } from 'jose';
import { Clock } from '@platform/runtime';
import { GrantsRepository } from '../grants/grants.repository';
import { ClientAuthenticator } from './client-authenticator.service';
import { LocalTokenVerifier } from './local-token-verifier.service';
import { OAuthError, OAuthErrorFilter } from './oauth-error';
import { OAuthRateLimitGuard } from './rate-limit.guard';
import { TokenIssuer } from './token-issuer.service';

@ApiTags('OAuth')
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
@UseGuards(OAuthRateLimitGuard)
export class RevocationController {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly tokens: LocalTokenVerifier,
    private readonly grants: GrantsRepository,
    private readonly hasher: SecretHasher,
    private readonly issuer: TokenIssuer,
    private readonly clock: Clock,
  ) {}

  /**
   * Reads the body's parameters as the token endpoint does (each once, each a string) and
   * authenticates the client from them; the form's own rules are checked after, so an unknown
   * caller learns nothing about its form.
   */
  private async authenticate(body: unknown, authorization?: string) {
    const read = readParameters(body);
    const { client } = await this.authenticator.authenticate({ authorization, body: read.form, tokenEndpoint: `${this.issuer.issuer}/oauth/token` });
    return { client, read };
  }

  /** RFC 7009: always 200 for an authenticated client; only the owner's tokens are revoked. */
  @Post('revoke')
  @HttpCode(200)
  @ApiOperation({ summary: "RFC 7009 revocation: only the caller's own tokens; a refresh token ends its whole family", description: CLIENT_AUTHENTICATION })
  @ApiClientAuthentication()
  @ApiFormBody(TokenHintForm)
  @ApiOkResponse({ description: 'Always, for an authenticated client (empty body)' })
  @ApiOAuthError(400, '`invalid_request`: no token, or a parameter repeated or not a string')
  @ApiOAuthError(401, '`invalid_client`')
  @ApiOAuthRateLimited()
  async revoke(@Body() body: unknown, @Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response) {
    const { client, read } = await this.authenticate(body, authorization);
    const { token } = checkForm(TokenHintForm, read).form;
    res.setHeader('Cache-Control', 'no-store');
    if (token.startsWith('iamrt_')) {
      const row = await this.grants.findRefreshToken(this.hasher.lookupKey(token));
      if (row && row.client_id === client.clientId) await this.grants.revokeGrant(row.grant_id, 'revoked by client', this.clock.now());
      return '';
    }
    // Whatever the user's state: a deactivated user's token must not come back on reactivation.
    const claims = await this.tokens.revocable(token);
    if (claims && claims.client_id === client.clientId) {
      await this.tokens.revokeAccessToken(claims);
    }
    return '';
  }

  /** RFC 7662 for confidential clients: the token's own client, or a first-party confidential client. */
  @Post('introspect')
  @HttpCode(200)
  @ApiOperation({
    summary: "RFC 7662 introspection for confidential clients (the token's own client or a first-party one)",
    description: `${CLIENT_AUTHENTICATION} Refresh tokens are reported inactive, as are tokens of a revoked grant or client and of a user no longer active. A DPoP-bound token answers \`token_type: DPoP\` and \`cnf.jkt\` (RFC 9449 §6.2).`,
  })
  @ApiClientAuthentication()
  @ApiFormBody(TokenHintForm)
  @ApiOkResponse({ description: "The token's state", type: IntrospectionResponse })
  @ApiOAuthError(400, '`invalid_request`: no token, or a parameter repeated or not a string')
  @ApiOAuthError(401, '`invalid_client`, or a public client')
  @ApiOAuthRateLimited()
  async introspect(@Body() body: unknown, @Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response) {
    const { client, read } = await this.authenticate(body, authorization);
    if (!client.isConfidential) throw OAuthError.invalidClient('introspection needs a confidential client');
    const { token } = checkForm(TokenHintForm, read).form;
    res.setHeader('Cache-Control', 'no-store');
    let unverified: Record<string, unknown> = {};
    try {
      unverified = decodeJwt(token);
    } catch {
      return { active: false };
    }
    if (unverified['client_id'] !== client.clientId && !client.firstParty) return { active: false };
    const claims = await this.tokens.active(token);
    if (!claims) return { active: false };
    // RFC 9449 §6.2: a DPoP-bound token is introspected as such, so a resource server that
    // introspects can demand the proof of that key.
    const jkt = typeof claims.cnf?.jkt === 'string' ? claims.cnf.jkt : undefined;
    return {
      active: true,
      scope: claims.scope,
      client_id: claims.client_id,
      sub: claims.sub,
      aud: claims.aud,
      iss: claims.iss,
      exp: claims.exp,
      iat: claims.iat,
      jti: claims.jti,
      token_type: jkt ? 'DPoP' : 'Bearer',
      ...(jkt ? { cnf: { jkt } } : {}),
      ...(claims['acr'] ? { acr: claims['acr'] } : {}),
    };
  }
}
