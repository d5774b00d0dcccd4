import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientDataError } from './data-exception';
import { DomainError } from './domain-error';

export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code?: string;
  [extension: string]: unknown;
}

const PROBLEM_BASE = 'https://errors.platform.local/';

function titleFor(status: number): string {
  const name = HttpStatus[status];
  return name ? name.toLowerCase().replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase()) : 'Error';
}

/** Maps any thrown value to a problem document; 5xx never exposes internals. */
export function toProblem(exception: unknown, instance?: string): ProblemDetails {
  if (exception instanceof DomainError) {
    return {
      type: PROBLEM_BASE + exception.code,
      title: titleFor(exception.status),
      status: exception.status,
      detail: exception.message,
      instance,
      code: exception.code,
      ...(exception.details ?? {}),
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const body = exception.getResponse();
    const extra = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const message = typeof body === 'string' ? body : (extra['message'] as unknown);
    const code = typeof extra['code'] === 'string' ? (extra['code'] as string) : HttpStatus[status]?.toLowerCase() ?? 'error';
    const { message: _m, statusCode: _s, error: _e, ...rest } = extra;
    return {
      type: PROBLEM_BASE + code,
      title: titleFor(status),
      status,
      detail: Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : exception.message,
      instance,
      code,
      ...rest,
    };
  }
  const exposed = exposedClientError(exception);
  if (exposed) {
    const code = HttpStatus[exposed.status]?.toLowerCase() ?? 'bad_request';
    return { type: PROBLEM_BASE + code, title: titleFor(exposed.status), status: exposed.status, detail: exposed.detail, instance, code };
  }
  return { type: PROBLEM_BASE + 'internal_error', title: 'Internal server error', status: 500, instance, code: 'internal_error' };
}

/** Longest detail taken from an exposed error's message (a JSON syntax error quotes the client's input). */
const MAX_EXPOSED_DETAIL = 200;

/**
 * An error from the HTTP stack that carries a 4xx status and says its message may be shown: the
 * http-errors that Express's body parsers raise (body too large, unsupported Content-Encoding,
 * too many parameters, unparsable JSON, aborted request). The client's doing, so its status and
 * message, never a 500. Anything else with a `status` (a 5xx, or one not marked `expose`) is not.
 */
function exposedClientError(exception: unknown): { status: number; detail: string } | undefined {
  if (!(exception instanceof Error)) return undefined;
  const { status, statusCode, expose } = exception as Error & { status?: unknown; statusCode?: unknown; expose?: unknown };
  const value = typeof status === 'number' ? status : statusCode;
  if (expose !== true || typeof value !== 'number' || !Number.isInteger(value) || value < 400 || value > 499) return undefined;
  const message = exception.message || HttpStatus[value]?.toLowerCase().replace(/_/g, ' ') || 'bad request';
  return { status: value, detail: message.length > MAX_EXPOSED_DETAIL ? `${message.slice(0, MAX_EXPOSED_DETAIL)}…` : message };
}

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetailsFilter');

  catch(raised: unknown, host: ArgumentsHost): void {
    const exception = clientDataError(raised, this.logger) ?? raised;
    const ctx = host.switchToHttp();
    const req = ctx.getRequest<Request>();
    const res = ctx.getResponse<Response>();
    // The path alone: the query string is client input that can carry credentials
    // (`?access_token=…`, a sign-in `code`), and a problem travels back through proxies and logs.
    const problem = toProblem(exception, req?.originalUrl?.split('?', 1)[0]);
    if (problem.status >= 500) this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    if (res.headersSent) return;
    res.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
  }
}
