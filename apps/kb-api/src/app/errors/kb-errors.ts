import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { clientDataError, errorsByField, postgresSqlState, ValidationFailedError } from '@platform/observability';
import type { Response } from 'express';

/** A knowledge-base error with its own code: `{ error: "snake_code", message, …extra }`. */
export class KbError extends HttpException {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message, status);
  }
}

/** 422 in the validation shape `{ message, errors: { field: [messages] } }` (also used by 429 throttles). */
export class KbValidationError extends HttpException {
  constructor(
    readonly errors: Record<string, string[]>,
    status = 422,
    readonly headers: Record<string, string> = {},
  ) {
    super(Object.values(errors)[0]?.[0] ?? 'The given data was invalid.', status);
  }
}

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Bad request.',
  401: 'Unauthenticated.',
  403: 'This action is unauthorized.',
  404: 'Not found.',
  405: 'Method not allowed.',
  413: 'Payload too large.',
  415: 'Unsupported media type.',
  429: 'Too many attempts.',
};

/**
 * The edge layer's 415 (a body neither parser reads, a charset other than UTF-8, an unknown
 * content encoding): its message says what to send instead, which no generic text can, so it is
 * kept. Recognised by the code the edge gives it, never by status alone.
 */
function edgeMediaTypeMessage(status: number, body: unknown): string | undefined {
  if (status !== 415 || typeof body !== 'object' || body === null) return undefined;
  const { message, code } = body as Record<string, unknown>;
  return code === 'unsupported_media_type' && typeof message === 'string' ? message : undefined;
}

/**
 * The knowledge base's error shapes (reference kb §2.1): `{message}` by default, the validation
 * shape for 422, `{error, message}` for coded errors. A 5xx never leaks its cause.
 */
@Catch()
export class KbErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('KbErrorFilter');

  catch(raised: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const { exception, status } = kbAnswerOf(raised, this.logger);
    if (exception instanceof ValidationFailedError) {
      res.status(exception.status).json({ message: exception.errors[0]?.message ?? 'The given data was invalid.', errors: errorsByField(exception.errors) });
      return;
    }
    if (exception instanceof KbValidationError) {
      for (const [k, v] of Object.entries(exception.headers)) res.setHeader(k, v);
      res.status(exception.getStatus()).json({ message: exception.message, errors: exception.errors });
      return;
    }
    if (exception instanceof KbError) {
      res.status(exception.getStatus()).json({ error: exception.code, message: exception.message, ...exception.extra });
      return;
    }
    if (status >= 500) {
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
      res.status(status).json({ message: 'Server error.' });
      return;
    }
    const body = exception instanceof HttpException ? exception.getResponse() : undefined;
    const given = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['message'] : body;
    // Framework messages ("Cannot GET /x", body-parser details) are replaced by the area's own; the
    // edge layer's 415 names the media types read and stays.
    const message =
      exception instanceof KbMessage && typeof given === 'string' ? given : edgeMediaTypeMessage(status, body) ?? DEFAULT_MESSAGES[status] ?? 'Request failed.';
    // A missing resource or route is also named by code, as the other areas do.
    res.status(status).json(status === 404 ? { error: 'not_found', message } : { message });
  }
}

/**
 * What KbErrorFilter answers for a raised error: the error it answers with (a database data
 * exception becomes a 422, a constraint race a 409 or 404) and that answer's status. The request
 * logs read the status from here, so they record what the client was sent. Logs only with a logger.
 */
export function kbAnswerOf(raised: unknown, logger?: Logger): { exception: unknown; status: number } {
  const exception = clientDataError(raised, logger) ?? constraintRace(raised, logger) ?? raised;
  const status =
    exception instanceof ValidationFailedError ? exception.status : exception instanceof HttpException ? exception.getStatus() : clientErrorStatus(exception) ?? 500;
  return { exception, status };
}

/**
 * A constraint the database enforced against two requests racing, which the services check first
 * but cannot check atomically without it: the same name created twice at once (23505), a row added
 * under a parent deleted at the same moment (23503, "not present": the parent is gone, 404), or a
 * row deleted while something was added under it (23503, "still referenced": 409). Logged at warn;
 * the answer names nothing of the schema.
 */
function constraintRace(e: unknown, logger?: Logger): KbError | undefined {
  const state = postgresSqlState(e);
  if (state !== '23505' && state !== '23503') return undefined;
  logger?.warn(`a request lost a race on a database constraint (SQLSTATE ${state}): ${(e as Error).message}`);
  if (state === '23505') return new KbError(409, 'conflict', 'Another request created or changed the same record at the same moment. Try again.');
  const detail = String((e as { detail?: unknown; driverError?: { detail?: unknown } }).detail ?? (e as { driverError?: { detail?: unknown } }).driverError?.detail ?? '');
  return /is not present in table/.test(detail) ? new KbError(404, 'not_found', 'Not found.') : new KbError(409, 'conflict', 'The record is still in use by another one.');
}

/** The 4xx of an error raised before routing (body parser: malformed JSON 400, oversized 413). */
function clientErrorStatus(e: unknown): number | undefined {
  const status = (e as { status?: unknown; expose?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && (e as { expose?: unknown }).expose === true ? status : undefined;
}

/** An HTTP error whose message is meant for the caller as written. */
export class KbMessage extends HttpException {
  constructor(status: number, message: string) {
    super({ message }, status);
  }
}
