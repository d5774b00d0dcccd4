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
 * Body-parser failures as Nest presents them to filters: a malformed body (SyntaxError with
 * status 400) becomes a BadRequestException with the parser's message; anything else is unchanged.
 */
export function asNestException(err: unknown): unknown {
  const status = (err as { status?: number } | null)?.status;
  if ((err instanceof SyntaxError || err instanceof URIError) && status === 400) return new BadRequestException(err.message);
  return err;
}
