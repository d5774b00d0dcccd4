import { BadRequestException } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Runs an Express middleware (a body parser) to completion; its error rejects. */
export function runMiddleware(middleware: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    const next: NextFunction = (err?: unknown) => (err ? reject(err) : resolve());
    middleware(req, res, next);
  });
}

/**
 * Runs Express middleware in order, as Express's router would before routing: each one's next()
 * starts the following one, the first error rejects. One promise for the whole chain, so a lean
 * request pays no extra turn of the event loop per middleware.
 */
export function runMiddlewareChain(chain: readonly RequestHandler[], req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    let index = 0;
    const next: NextFunction = (err?: unknown) => {
      if (err) return reject(err);
      const middleware = chain[index++];
      if (!middleware) return resolve();
      try {
        middleware(req, res, next);
      } catch (thrown) {
        reject(thrown);
      }
    };
    next();
  });
}

/**
 * Body-parser failures as Nest presents them to filters: a malformed body (SyntaxError with
 * status 400) becomes a BadRequestException with the parser's message; anything else is unchanged.
 */
export function asNestException(err: unknown): unknown {
  const status = (err as { status?: number } | null)?.status;
  if ((err instanceof SyntaxError || err instanceof URIError) && status === 400) return new BadRequestException(err.message);
  return err;
}
