import { CanActivate, ExecutionContext, HttpException, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { PUBLIC_KEY, SCOPES_KEY } from './decorators';
import { JwtVerifier } from './jwt-verifier';
import { principalFromClaims } from './principal';

export const JWT_VERIFIER = Symbol.for('platform.JWT_VERIFIER');

/** 401 with an RFC 6750 challenge; 403 names the missing scopes. */
function challenge(res: Response, status: 401 | 403, error: string, description: string): HttpException {
  res.setHeader('WWW-Authenticate', `Bearer error="${error}", error_description="${description.replace(/"/g, "'")}"`);
  return new HttpException({ code: error, message: description }, status);
}

@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(JWT_VERIFIER) private readonly verifier: JwtVerifier,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets)) return true;

    const http = context.switchToHttp();
    const req = http.getRequest<Request & { principal?: unknown }>();
    const res = http.getResponse<Response>();
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header) : null;
    if (!match) throw challenge(res, 401, 'invalid_request', 'a bearer access token is required');

    let claims: Record<string, unknown>;
    try {
      claims = (await this.verifier.verify(match[1])).payload;
    } catch (e) {
      throw challenge(res, 401, 'invalid_token', e instanceof Error ? e.message : 'invalid token');
    }
    const principal = principalFromClaims(claims);
    req.principal = principal;

    const required = this.reflector.getAllAndMerge<string[]>(SCOPES_KEY, targets) ?? [];
    const missing = required.filter((s) => !principal.scopes.includes(s));
    if (missing.length > 0) {
      throw challenge(res, 403, 'insufficient_scope', `missing permission: ${missing.join(' ')}`);
    }
    return true;
  }
}
