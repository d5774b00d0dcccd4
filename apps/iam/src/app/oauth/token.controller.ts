import { Body, Controller, Headers, HttpCode, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { hasMediaType, LeanRoute } from '@platform/runtime';
import type { Request, Response } from 'express';
import { ClientAuthenticator } from './client-authenticator.service';
import { DpopProofs } from './dpop-proofs.service';
import { ApiClientAuthentication, CLIENT_AUTHENTICATION, ApiDpopHeader, ApiFormBody, ApiOAuthError, ApiOAuthRateLimited } from '../api-docs';
import { TokenForm } from './dto/token.form';
import { TokenResponse } from './dto/token.response';
import { readForm } from './form';
import { OAuthError, OAuthErrorFilter } from './oauth-error';
import { OAuthRateLimitGuard } from './rate-limit.guard';
import { ResourceIndicators } from './resource-indicators';
import { grantScopes } from './scopes';
import { TokenIssuer } from './token-issuer.service';
import { UserTokensService } from './user-tokens.service';

@ApiTags('OAuth')
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
@UseGuards(OAuthRateLimitGuard)
export class TokenController {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly issuer: TokenIssuer,
    private readonly userTokens: UserTokensService,
    private readonly dpop: DpopProofs,
    private readonly resources: ResourceIndicators,
  ) {}

  @Post('token')
  @HttpCode(200)
  // Form posts also take the lean request path (docs/benchmarks.md); other bodies get invalid_request here.
  @LeanRoute({ accepts: hasMediaType('application/x-www-form-urlencoded') })
  @ApiOperation({
    summary: 'Token endpoint: authorization_code, client_credentials, refresh_token',
    description: `${CLIENT_AUTHENTICATION} A refresh token is rotated on every use; presenting a used one ends its whole family, which lasts IAM_REFRESH_FAMILY_TTL_SEC from the code exchange however often it rotates. A refresh's \`scope\` narrows that access token only: the next refresh token keeps the whole grant. Scopes the client has lost since the authorization are left out of every token (none left: \`invalid_grant\`). A public client's refresh token issued with a DPoP proof works only with a proof of the same key. \`resource\` narrows the grant's resources (none: all of them; none granted: the default audience). With OAUTH_DPOP_NONCE_REQUIRED a proof must carry the nonce of the \`DPoP-Nonce\` header (400 \`use_dpop_nonce\` gives one). Answers carry Cache-Control: no-store.`,
  })
  @ApiClientAuthentication()
  @ApiDpopHeader()
  @ApiFormBody(TokenForm)
  @ApiOkResponse({ description: 'Tokens', type: TokenResponse })
  @ApiOAuthError(400, '`invalid_request` (also a body that is not form-encoded, or a parameter repeated or not a string), `invalid_grant`, `invalid_scope`, `invalid_target`, `invalid_dpop_proof` (also a replayed proof), `use_dpop_nonce`, `unauthorized_client`, `unsupported_grant_type`')
  @ApiOAuthError(401, '`invalid_client` (WWW-Authenticate: Basic when Basic was used)')
  @ApiOAuthRateLimited()
  async token(
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    if (!req.is('application/x-www-form-urlencoded')) {
      throw OAuthError.invalidRequest('the body must be application/x-www-form-urlencoded');
    }
    const { form, resources } = readForm(TokenForm, body);
    const grantType = form.grant_type;
    if (!['client_credentials', 'authorization_code', 'refresh_token'].includes(grantType)) {
      throw OAuthError.unsupportedGrantType(`grant_type ${grantType} is not supported`);
    }
    const tokenEndpoint = `${this.issuer.issuer}/oauth/token`;
    // The proof (and its nonce) is checked before the client authenticates, so a use_dpop_nonce
    // round trip does not spend a private_key_jwt assertion; its jti is remembered only after.
    const proof = await this.dpop.verify(req.headers['dpop'], tokenEndpoint);
    const { client } = await this.authenticator.authenticate({ authorization, body: form, tokenEndpoint });
    if (!client.grantTypes.includes(grantType)) {
      throw OAuthError.unauthorizedClient(`the client may not use grant_type ${grantType}`);
    }
    if (client.dpopBoundAccessTokens && !proof) throw OAuthError.invalidRequest('this client must send a DPoP proof');
    if (proof) {
      await this.dpop.claim(proof);
      for (const [name, value] of Object.entries(this.dpop.nonceHeader())) res.setHeader(name, value);
    }
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');

    if (grantType === 'client_credentials') {
      if (!client.isConfidential) throw OAuthError.unauthorizedClient('public clients cannot use client_credentials');
      const scopes = grantScopes(form['scope'], client.scopes.filter((s) => s !== 'openid' && s !== 'offline_access'));
      const at = await this.issuer.accessToken({
        sub: client.clientId,
        clientId: client.clientId,
        scopes,
        resources: this.resources.requested(resources),
        jkt: proof?.jkt,
      });
      return { access_token: at.token, token_type: proof ? 'DPoP' : 'Bearer', expires_in: at.expiresIn, scope: scopes.join(' ') };
    }
    if (grantType === 'authorization_code') return this.userTokens.exchangeCode(client, form, { resources, proof });
    return this.userTokens.refresh(client, form, { resources, proof });
  }
}
