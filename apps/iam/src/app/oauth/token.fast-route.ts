import type { IncomingMessage } from 'node:http';
import { ForbiddenException, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { answerWithFilter, appBodyParser, FastRequest, handlerContext, mountFastRoutesInApp, runMiddleware, sendJson } from '@platform/runtime';
import type { Express, RequestHandler, Response } from 'express';
import { OAuthErrorFilter } from './oauth-error';
import { OAuthRateLimitGuard } from './rate-limit.guard';
import { TokenController } from './token.controller';

export const TOKEN_PATH = '/oauth/token';

/** Form posts only; anything else keeps going through Nest (which answers it invalid_request). */
export function isFormRequest(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (!type) return false;
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/**
 * POST /oauth/token on the lean request path (docs/benchmarks.md): the app's own form parser, the
 * controller's rate-limit guard (Redis count per client IP, as Express's trust-proxy rules see the
 * IP), the controller method itself (same authenticator and issuer) and the OAuth error filter.
 * The Nest route stays for requests this path declines.
 */
@Injectable()
export class TokenFastRoute implements OnApplicationBootstrap {
  // Body-parser failures (the edge layer's refusals included) answer in the OAuth shape, as iam's
  // global filter answers them under /oauth on the Nest route.
  private readonly oauthErrors = new OAuthErrorFilter();
  private parseForm!: RequestHandler;
  private rateLimit!: OAuthRateLimitGuard;
  private controller!: TokenController;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const app = this.adapterHost.httpAdapter?.getInstance<Express>();
    if (!app) return;
    this.parseForm = appBodyParser(app, 'urlencoded');
    this.rateLimit = this.moduleRef.get(OAuthRateLimitGuard, { strict: false });
    this.controller = this.moduleRef.get(TokenController, { strict: false });
    mountFastRoutesInApp(this.moduleRef, this.adapterHost, [
      { method: 'POST', path: TOKEN_PATH, accepts: isFormRequest, handle: (req, res) => this.token(req, res) },
    ]);
  }

  private async token(req: FastRequest, res: Response): Promise<void> {
    try {
      await runMiddleware(this.parseForm, req, res);
      const allowed = await this.rateLimit.canActivate(handlerContext(req, res, TokenController, 'token'));
      if (!allowed) throw new ForbiddenException('Forbidden resource');
      const header = req.headers.authorization;
      const result = await this.controller.token(req.body, typeof header === 'string' ? header : undefined, req, res);
      sendJson(res, 200, result);
    } catch (err) {
      answerWithFilter(this.oauthErrors, err, req, res);
    }
  }
}
