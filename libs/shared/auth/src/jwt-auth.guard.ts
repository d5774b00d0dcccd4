import { ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, IAuthModuleOptions } from '@nestjs/passport';
import type { Request, Response } from 'express';
import { AccessTokenAuthenticator, AccessTokenRejected, AuthenticatedToken } from './access-token-authenticator';
import { PROTECTED_RESOURCE_KEY, PUBLIC_KEY, SCOPES_KEY } from './decorators';
import { Principal, principalFromClaims } from './principal';
import { AuthFailure, wwwAuthenticate } from './protected-resource';
import { JwtStrategy } from './strategies/jwt.strategy';
import { authenticateWith } from './strategies/strategy-instances';
import { ACCESS_TOKEN_AUTHENTICATOR, AUTH_RESOURCE, AuthResource } from './tokens';

/** Where passport leaves the verified caller (`@CurrentPrincipal()` reads it). */
const PRINCIPAL_PROPERTY = 'principal';

/**
 * Verifies iam's access tokens (Bearer, or DPoP with its proof) through the `jwt` passport
 * strategy, then the route's scopes. 401 with RFC 6750 / RFC 9449 challenges; 403 names the
 * missing scopes. No passport session: every request carries its token.
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard() {
  constructor(
    private readonly reflector: Reflector,
    @Inject(ACCESS_TOKEN_AUTHENTICATOR) private readonly authenticator: AccessTokenAuthenticator,
    @Inject(AUTH_RESOURCE) private readonly resource: AuthResource,
    strategy: JwtStrategy,
  ) {
    super(authenticateWith(strategy));
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    await super.canActivate(context);
    const req = context.switchToHttp().getRequest<Request & { principal: Principal }>();
    const principal = req.principal;

    const required = this.reflector.getAllAndMerge<string[]>(SCOPES_KEY, targets) ?? [];
    const missing = required.filter((s) => !principal.scopes.includes(s));
    if (missing.length > 0) {
      const scheme = AccessTokenAuthenticator.presented(req.headers);
      throw this.challenge(context, {
        status: 403,
        error: 'insufficient_scope',
        description: `missing permission: ${missing.join(' ')}`,
        scope: required.join(' '),
        scheme: scheme && scheme !== 'malformed' ? scheme.scheme : 'Bearer',
      });
    }
    return true;
  }

  override getAuthenticateOptions(): IAuthModuleOptions {
    return { property: PRINCIPAL_PROPERTY };
  }

  /** The strategy's refusal becomes the challenge; a verified token becomes the principal. */
  override handleRequest<TUser = Principal>(err: unknown, token: AuthenticatedToken | false, _info: unknown, context: ExecutionContext): TUser {
    if (err instanceof AccessTokenRejected) throw this.challenge(context, err.failure);
    if (err) throw err;
    if (!token) throw this.challenge(context, { status: 401, error: 'invalid_request', description: 'a bearer access token is required', scheme: 'Bearer' });
    // The proof's nonce is from the previous window: the next proof should carry this one.
    if (token.dpopNonce) context.switchToHttp().getResponse<Response>().setHeader('DPoP-Nonce', token.dpopNonce);
    return principalFromClaims(token.payload) as TUser;
  }

  private challenge(context: ExecutionContext, failure: AuthFailure): HttpException {
    const res = context.switchToHttp().getResponse<Response>();
    const protectedResource = this.reflector.getAllAndOverride<boolean>(PROTECTED_RESOURCE_KEY, [context.getHandler(), context.getClass()]) === true;
    if (failure.dpopNonce) res.setHeader('DPoP-Nonce', failure.dpopNonce);
    res.setHeader(
      'WWW-Authenticate',
      wwwAuthenticate(failure, {
        resourceMetadata: protectedResource ? this.resource.metadataUrl : undefined,
        dpopAlgorithms: this.authenticator.dpopAlgorithms,
      }),
    );
    return new HttpException({ code: failure.error ?? 'invalid_request', message: failure.description ?? 'authentication required' }, failure.status);
  }
}
