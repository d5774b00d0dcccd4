import { ArgumentsHost, BadRequestException, ExceptionFilter, ExecutionContext, Type } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const noop = () => undefined;

/**
 * The execution context Nest would give guards for `controller.method`, so a lean route runs the
 * controller's own guards (their metadata, e.g. required scopes, is read from the same decorators).
 */
export function handlerContext(req: Request, res: Response, controller: Type<unknown>, method: string): ExecutionContext {
  const handler = (controller.prototype as Record<string, (...args: unknown[]) => unknown>)[method];
  if (typeof handler !== 'function') throw new Error(`${controller.name}.${method} is not a handler`);
  return new ExecutionContextHost([req, res, noop], controller, handler);
}

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

/** Lets an exception filter answer, as Nest would call it for this request. */
export function answerWithFilter(filter: ExceptionFilter, err: unknown, req: Request, res: Response): void {
  const host: ArgumentsHost = new ExecutionContextHost([req, res, noop]);
  filter.catch(err, host);
}
