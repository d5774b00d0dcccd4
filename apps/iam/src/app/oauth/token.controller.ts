import { Body, Controller, Headers, HttpCode, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ClientAuthenticator } from './client-authenticator.service';
import { OAuthError, OAuthErrorFilter } from './oauth-error';
import { OAuthRateLimitGuard } from './rate-limit.guard';
import { grantScopes } from './scopes';
import { TokenIssuer } from './token-issuer.service';
import { UserTokensService } from './user-tokens.service';

type Form = Record<string, string | undefined>;

@Controller('oauth')
@UseFilters(OAuthErrorFilter)
@UseGuards(OAuthRateLimitGuard)
export class TokenController {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly issuer: TokenIssuer,
    private readonly userTokens: UserTokensService,
  ) {}

  @Post('token')
  @HttpCode(200)
  async token(
    @Body() body: Form,
    @Headers('authorization') authorization: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    if (!req.is('application/x-www-form-urlencoded')) {
      throw OAuthError.invalidRequest('the body must be application/x-www-form-urlencoded');
    }
    const form = Object.fromEntries(
      Object.entries(body ?? {}).map(([k, v]) => {
        if (Array.isArray(v)) throw OAuthError.invalidRequest(`parameter ${k} is repeated`);
        return [k, typeof v === 'string' ? v : undefined];
      }),
    ) as Form;
    const grantType = form['grant_type'];
    if (!grantType) throw OAuthError.invalidRequest('grant_type is required');
    if (!['client_credentials', 'authorization_code', 'refresh_token'].includes(grantType)) {
      throw OAuthError.unsupportedGrantType(`grant_type ${grantType} is not supported`);
    }
    const { client } = await this.authenticator.authenticate({
      authorization,
      body: form,
      tokenEndpoint: `${this.issuer.issuer}/oauth/token`,
    });
    if (!client.grantTypes.includes(grantType)) {
      throw OAuthError.unauthorizedClient(`the client may not use grant_type ${grantType}`);
    }
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');

    if (grantType === 'client_credentials') {
      if (!client.isConfidential) throw OAuthError.unauthorizedClient('public clients cannot use client_credentials');
      const scopes = grantScopes(form['scope'], client.scopes.filter((s) => s !== 'openid' && s !== 'offline_access'));
      const at = await this.issuer.accessToken({ sub: client.clientId, clientId: client.clientId, scopes });
      return { access_token: at.token, token_type: 'Bearer', expires_in: at.expiresIn, scope: scopes.join(' ') };
    }
    if (grantType === 'authorization_code') return this.userTokens.exchangeCode(client, form);
    return this.userTokens.refresh(client, form);
  }
}
