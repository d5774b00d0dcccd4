import { CanActivate, ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AccessTokenAuthenticator, AccessTokenRejected } from './access-token-authenticator';
import { ACCESS_TOKEN_AUTHENTICATOR, AUTH_RESOURCE, AuthResource } from './tokens';
import { PROTECTED_RESOURCE_KEY, PUBLIC_KEY, SCOPES_KEY } from './decorators';
import { principalFromClaims } from './principal';
import { AuthFailure, wwwAuthenticate } from './protected-resource';


/**
 * Verifies iam's access tokens (Bearer, or DPoP with its proof) and the route's scopes. 401 with
 * RFC 6750 / RFC 9449 challenges; 403 names the missing scopes.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(ACCESS_TOKEN_AUTHENTICATOR) private readonly authenticator: AccessTokenAuthenticator,
    @Inject(AUTH_RESOURCE) private readonly resource: AuthResource,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    const http = context.switchToHttp();
    const req = http.getRequest<Request & { principal?: unknown }>();
    const res = http.getResponse<Response>();
    const protectedResource = this.reflector.getAllAndOverride<boolean>(PROTECTED_RESOURCE_KEY, targets) === true;
    const challenge = (failure: AuthFailure): HttpException => {
      if (failure.dpopNonce) res.setHeader('DPoP-Nonce', failure.dpopNonce);
      res.setHeader(
        'WWW-Authenticate',
        wwwAuthenticate(failure, {
          resourceMetadata: protectedResource ? this.resource.metadataUrl : undefined,
          dpopAlgorithms: this.authenticator.dpopAlgorithms,
        }),
      );
      return new HttpException({ code: failure.error ?? 'invalid_request', message: failure.description ?? 'authentication required' }, failure.status);
    };

    let claims: Record<string, unknown>;
    try {
      const authenticated = await this.authenticator.authenticate(req);
      // The proof's nonce is from the previous window: the next proof should carry this one.
      if (authenticated.dpopNonce) res.setHeader('DPoP-Nonce', authenticated.dpopNonce);
      claims = authenticated.payload;
    } catch (e) {
      if (e instanceof AccessTokenRejected) throw challenge(e.failure);
      throw e;
    }
    const principal = principalFromClaims(claims);
    req.principal = principal;

    const required = this.reflector.getAllAndMerge<string[]>(SCOPES_KEY, targets) ?? [];
    const missing = required.filter((s) => !principal.scopes.includes(s));
    if (missing.length > 0) {
      const scheme = AccessTokenAuthenticator.presented(req.headers);
      throw challenge({
        status: 403,
        error: 'insufficient_scope',
        description: `missing permission: ${missing.join(' ')}`,
        scope: required.join(' '),
        scheme: scheme && scheme !== 'malformed' ? scheme.scheme : 'Bearer',
      });
    }
    return true;
  }
}
