import { Controller, Get, Headers, Post, Res, UseFilters } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiOAuthError } from '../api-docs';
import { UserinfoResponse } from './dto/token.response';
import { UsersRepository } from '../users/users.repository';
import { emailClaims } from './email-claims';
import { LocalTokenVerifier } from './local-token-verifier.service';
import { OAuthError, OAuthErrorFilter } from './oauth-error';

/** OIDC Core §5.3 UserInfo: the signed-in user's claims, for a token carrying openid. */
@ApiTags('OAuth')
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
export class UserinfoController {
  constructor(
    private readonly tokens: LocalTokenVerifier,
    private readonly users: UsersRepository,
  ) {}

  @Get('userinfo')
  @ApiOperation({ summary: 'OIDC userinfo', description: 'Needs an access token with `openid`; `email` and `profile` add claims.' })
  @ApiSecurity('bearer')
  @ApiOkResponse({ description: 'The claims of the signed-in user', type: UserinfoResponse })
  @ApiOAuthError(401, 'No token, or an invalid, expired or revoked one (`invalid_token`, WWW-Authenticate: Bearer)')
  @ApiOAuthError(403, 'The token lacks `openid` (`insufficient_scope`)')
  get(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response) {
    return this.userinfo(authorization, res);
  }

  @Post('userinfo')
  @ApiOperation({ summary: 'OIDC userinfo (POST form)', description: 'Needs an access token with `openid`; `email` and `profile` add claims.' })
  @ApiSecurity('bearer')
  @ApiOkResponse({ description: 'The claims of the signed-in user', type: UserinfoResponse })
  @ApiOAuthError(401, 'No token, or an invalid, expired or revoked one (`invalid_token`, WWW-Authenticate: Bearer)')
  @ApiOAuthError(403, 'The token lacks `openid` (`insufficient_scope`)')
  post(@Headers('authorization') authorization: string | undefined, @Res({ passthrough: true }) res: Response) {
    return this.userinfo(authorization, res);
  }

  private async userinfo(authorization: string | undefined, res: Response) {
    const challenge = (error: string, description: string, status: number) =>
      new OAuthError(error, description, status, { 'WWW-Authenticate': `Bearer error="${error}", error_description="${description}"` });
    const token = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token) throw challenge('invalid_token', 'a bearer access token is required', 401);
    const claims = await this.tokens.active(token);
    if (!claims) throw challenge('invalid_token', 'the access token is invalid, expired or revoked', 401);
    if (!claims.scope.split(' ').includes('openid')) throw challenge('insufficient_scope', 'the token lacks the openid scope', 403);
    const user = claims.sub ? await this.users.findById(claims.sub) : null;
    if (!user?.active) throw challenge('invalid_token', 'the token subject is unknown', 401);
    res.setHeader('Cache-Control', 'no-store');
    const scopes = claims.scope.split(' ');
    return {
      sub: user.id,
      ...(scopes.includes('email') ? emailClaims(user) : {}),
      ...(scopes.includes('profile') ? { name: user.name } : {}),
    };
  }
}
