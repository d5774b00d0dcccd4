import { Controller, Get, HttpCode, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccessTokenAuthenticator, AccessTokenRejected, AuthFailure, wwwAuthenticate } from '@platform/auth';
import type { Request, Response } from 'express';
import { ApiOAuthError, ApiOAuthRateLimited } from '../api-docs';
import { UserinfoResponse } from './dto/token.response';
import { UsersRepository } from '../users/users.repository';
import { emailClaims } from './email-claims';
import { LocalTokenVerifier } from './local-token-verifier.service';
import { OAuthError, OAuthErrorFilter } from './oauth-error';
import { OAuthRateLimitGuard } from './rate-limit.guard';
import { USERINFO_AUTHENTICATOR } from './userinfo-authenticator';

const DESCRIPTION =
  'Needs an iam access token with `openid` (OIDC Core §5.3), whatever its audience: the default one or any RFC 8707 `resource` it was asked for (an MCP client\'s token works here too); without `openid`: 403 `insufficient_scope`. ' +
  '`Authorization: Bearer <token>`, or for a DPoP-bound token (`cnf.jkt`) `Authorization: DPoP <token>` with a `DPoP` proof of its key for this method and URL (RFC 9449 §7); a bound token presented as Bearer is refused. ' +
  '`email` and `profile` add claims. Rate limited with the /oauth group.';

/** The proof a DPoP-bound token comes with at this resource (RFC 9449 §7.1). */
const ApiUserinfoDpopHeader = () =>
  ApiHeader({
    name: 'DPoP',
    required: false,
    description: 'With `Authorization: DPoP`: a `dpop+jwt` proof signed by the key the token is bound to, htm the request method, htu this endpoint, `ath` the hash of the token',
    schema: { type: 'string' },
  });

/**
 * OIDC Core §5.3 UserInfo: the signed-in user's claims, for a token carrying openid.
 *
 * The token passes two checks. iam's own (LocalTokenVerifier: signature, `typ`, expiry on iam's
 * clock, and the revocation state only iam knows: jti, grant, client, user). Then the platform's
 * authenticator (@platform/auth) over every audience iam issues (USERINFO_AUTHENTICATOR): DPoP (a
 * bound token only with the DPoP scheme and a fresh proof of its key, an unbound one only as
 * Bearer). Any audience: the endpoint serves every access token of an OpenID Connect request
 * (§5.3), and MCP clients always name a `resource` (RFC 8707), so their tokens' aud is that
 * resource. What makes a token fit for this endpoint is its `openid` scope (else 403).
 */
@ApiTags('OAuth')
@Controller('oauth')
@UseFilters(OAuthErrorFilter)
@UseGuards(OAuthRateLimitGuard)
export class UserinfoController {
  constructor(
    private readonly tokens: LocalTokenVerifier,
    private readonly users: UsersRepository,
    @Inject(USERINFO_AUTHENTICATOR) private readonly authenticator: AccessTokenAuthenticator,
  ) {}

  @Get('userinfo')
  @ApiOperation({ summary: 'OIDC userinfo', description: DESCRIPTION })
  @ApiSecurity('bearer')
  @ApiUserinfoDpopHeader()
  @ApiOkResponse({ description: 'The claims of the signed-in user', type: UserinfoResponse })
  @ApiOAuthError(401, 'No token, or an invalid, expired or revoked one, a DPoP-bound one without its proof (`invalid_token`, `invalid_dpop_proof`; WWW-Authenticate: Bearer and DPoP)')
  @ApiOAuthError(403, 'The token lacks `openid` (`insufficient_scope`)')
  @ApiOAuthRateLimited()
  get(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.userinfo(req, res);
  }

  @Post('userinfo')
  // OIDC Core §5.3.2: the claims are answered 200 whatever the method (Nest's default for POST is 201).
  @HttpCode(200)
  @ApiOperation({ summary: 'OIDC userinfo (POST form)', description: DESCRIPTION })
  @ApiSecurity('bearer')
  @ApiUserinfoDpopHeader()
  @ApiOkResponse({ description: 'The claims of the signed-in user', type: UserinfoResponse })
  @ApiOAuthError(401, 'No token, or an invalid, expired or revoked one, a DPoP-bound one without its proof (`invalid_token`, `invalid_dpop_proof`; WWW-Authenticate: Bearer and DPoP)')
  @ApiOAuthError(403, 'The token lacks `openid` (`insufficient_scope`)')
  @ApiOAuthRateLimited()
  post(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.userinfo(req, res);
  }

  /** RFC 6750 §3 / RFC 9449 §7.1 challenge: the scheme the client used first, carrying the error. */
  private challenge(failure: AuthFailure): OAuthError {
    const headers: Record<string, string> = { 'WWW-Authenticate': wwwAuthenticate(failure, { dpopAlgorithms: this.authenticator.dpopAlgorithms }).join(', ') };
    if (failure.dpopNonce) headers['DPoP-Nonce'] = failure.dpopNonce;
    return new OAuthError(failure.error ?? 'invalid_token', failure.description ?? 'an access token is required', failure.status, headers);
  }

  private async userinfo(req: Request, res: Response) {
    const presented = AccessTokenAuthenticator.presented(req.headers);
    if (presented === null || presented === 'malformed') {
      throw this.challenge({ status: 401, error: 'invalid_token', description: 'a bearer access token is required', scheme: 'Bearer' });
    }
    const invalid = (description: string) => this.challenge({ status: 401, error: 'invalid_token', description, scheme: presented.scheme });
    // iam's own check first: a revoked or foreign token is refused before its DPoP proof is used up.
    const claims = await this.tokens.active(presented.token);
    if (!claims) throw invalid('the access token is invalid, expired or revoked');
    try {
      const verified = await this.authenticator.verify(req, presented);
      if (verified.dpopNonce) res.setHeader('DPoP-Nonce', verified.dpopNonce);
    } catch (e) {
      if (e instanceof AccessTokenRejected) throw this.challenge(e.failure);
      throw e;
    }
    if (!claims.scope.split(' ').includes('openid')) {
      throw this.challenge({ status: 403, error: 'insufficient_scope', description: 'the token lacks the openid scope', scope: 'openid', scheme: presented.scheme });
    }
    const user = claims.sub ? await this.users.findById(claims.sub) : null;
    if (!user?.active) throw invalid('the token subject is unknown');
    res.setHeader('Cache-Control', 'no-store');
    const scopes = claims.scope.split(' ');
    return {
      sub: user.id,
      ...(scopes.includes('email') ? emailClaims(user) : {}),
      ...(scopes.includes('profile') ? { name: user.name } : {}),
    };
  }
}
