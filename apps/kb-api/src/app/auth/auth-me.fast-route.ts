import type { IncomingMessage } from 'node:http';
import { ForbiddenException, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import {
  answerWithFilter,
  FastRequest,
  handlerContext,
  mountFastRoutesInApp,
} from '@platform/runtime';
import type { Response } from 'express';
import { KbErrorFilter } from '../errors/kb-errors';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { KbAuthGuard } from './kb-auth.guard';
import { KbRequest } from './kb-principal';
import { sendJson } from './lean-json';

export const AUTH_ME_PATH = '/api/auth/me';

/** Personal access tokens only; cookie sessions and iam tokens keep going through Nest. */
export function isPersonalAccessTokenRequest(req: IncomingMessage): boolean {
  const header = req.headers.authorization;
  return typeof header === 'string' && /^Bearer\s+kbp_/i.test(header);
}

/**
 * GET /api/auth/me for personal access tokens on the lean request path (docs/benchmarks.md,
 * "Knowledge base: authenticated request"): the app's own guard with the route's metadata (token
 * identities from TokenIdentityCache), `AuthService.me` as the controller calls it and the app's
 * error filter, without Express routing and Nest's per-request pipeline. The Nest route stays for
 * every request this path declines (a query string included).
 */
@Injectable()
export class AuthMeFastRoute implements OnApplicationBootstrap {
  private readonly filter = new KbErrorFilter();
  private guard!: KbAuthGuard;
  private auth!: AuthService;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.adapterHost.httpAdapter) return;
    this.guard = this.moduleRef.get(KbAuthGuard, { strict: false });
    this.auth = this.moduleRef.get(AuthService, { strict: false });
    mountFastRoutesInApp(this.moduleRef, this.adapterHost, [
      {
        method: 'GET',
        path: AUTH_ME_PATH,
        accepts: isPersonalAccessTokenRequest,
        handle: (req, res) => this.me(req, res),
      },
    ]);
  }

  private async me(req: FastRequest, res: Response): Promise<void> {
    try {
      const allowed = await this.guard.canActivateWithCachedTokens(
        handlerContext(req, res, AuthController, 'me'),
      );
      if (!allowed) throw new ForbiddenException('Forbidden resource');
      // What AuthController.me does, with the token's profile allowed from the cache.
      const result = await this.auth.me((req as FastRequest & KbRequest).kbPrincipal!, {
        cached: true,
      });
      sendJson(req, res, result);
    } catch (err) {
      answerWithFilter(this.filter, err, req, res);
    }
  }
}
