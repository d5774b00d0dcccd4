import type { IncomingMessage } from 'node:http';
import { ForbiddenException, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { JwtAuthGuard, Principal } from '@platform/auth';
import { answerWithFilter, appBodyParser, asNestException, FastRequest, handlerContext, mountFastRoutesInApp, runMiddleware } from '@platform/runtime';
import type { Express, RequestHandler, Response } from 'express';
import { EvidenceErrorFilter } from './evidence-error.filter';
import { ReviewsController } from './reviews.controller';

export const REVIEWS_PATH = '/evidence-risk-review/reviews';

/** JSON bodies only; other content types keep going through Nest, which parses them differently. */
export function isJsonRequest(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (!type) return false;
  const semi = type.indexOf(';');
  return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase() === 'application/json';
}

/**
 * POST /evidence-risk-review/reviews on the lean request path (docs/benchmarks.md): the app's own
 * body parser (same limit), the controller's own guard (token + `evidence:review`), the controller method
 * itself and the area's error filter, without Express routing and Nest's per-request pipeline.
 * The Nest route stays for requests this path declines.
 */
@Injectable()
export class ReviewsFastRoute implements OnApplicationBootstrap {
  private readonly filter = new EvidenceErrorFilter();
  private parseJson!: RequestHandler;
  private guard!: JwtAuthGuard;
  private controller!: ReviewsController;

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    const app = this.adapterHost.httpAdapter?.getInstance<Express>();
    if (!app) return;
    // The app's own parser: EVIDENCE_MAX_BODY_BYTES (startHttpApp's bodyLimitEnv) and its 413.
    this.parseJson = appBodyParser(app, 'json');
    this.guard = this.moduleRef.get(JwtAuthGuard, { strict: false });
    this.controller = this.moduleRef.get(ReviewsController, { strict: false });
    mountFastRoutesInApp(this.moduleRef, this.adapterHost, [
      { method: 'POST', path: REVIEWS_PATH, accepts: isJsonRequest, handle: (req, res) => this.review(req, res) },
    ]);
  }

  private async review(req: FastRequest & { principal?: Principal }, res: Response): Promise<void> {
    try {
      // Nest's order: body parser (413/400 before auth), guard, handler.
      await runMiddleware(this.parseJson, req, res);
      const allowed = await this.guard.canActivate(handlerContext(req, res, ReviewsController, 'review'));
      if (!allowed) throw new ForbiddenException('Forbidden resource');
      const result = await this.controller.review(req.body, req.principal!);
      res.status(201).json(result);
    } catch (err) {
      answerWithFilter(this.filter, asNestException(err), req, res);
    }
  }
}
