import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { clientDataError, DomainError, errorsByField, ValidationFailedError } from '@platform/observability';
import type { Response } from 'express';

export const SCHEMA_VERSION = 'guardrails.api.v1';

/** Endpoint names, as they appear in `schema` (`guardrails.api.v1.<name>`). */
export type EndpointName =
  | 'overview'
  | 'audit-list'
  | 'audit-detail'
  | 'audit-trend'
  | 'firewall'
  | 'output-stats'
  | 'approval-list'
  | 'approval-decision'
  | 'settings'
  | 'settings-changes'
  | 'try-screen'
  | 'try-sanitize'
  | 'error';

export interface Envelope<T> {
  schema_version: typeof SCHEMA_VERSION;
  schema: string;
  data: T;
}

export function envelope<T>(name: EndpointName, data: T): Envelope<T> {
  return { schema_version: SCHEMA_VERSION, schema: `${SCHEMA_VERSION}.${name}`, data };
}

/** An endpoint's non-2xx answer, still in its own envelope (`data.error` names the problem). */
export class GuardrailsApiError extends HttpException {
  constructor(
    status: number,
    readonly endpoint: EndpointName,
    readonly data: Record<string, unknown> & { error: string },
  ) {
    super(data.error, status);
  }
}

const codeFor = (status: number): string =>
  ({ 400: 'bad_request', 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found', 413: 'payload_too_large', 429: 'too_many_requests' })[status] ??
  (status >= 500 ? 'server_error' : 'error');

/**
 * Every answer of the API is enveloped, errors included: an endpoint's own errors keep its schema;
 * anything raised before a handler runs (the host middleware's 401/403, a malformed JSON body) uses
 * `guardrails.api.v1.error`. Server errors never leak their message.
 */
@Catch()
export class GuardrailsEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('GuardrailsEnvelopeFilter');

  catch(raised: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const exception = clientDataError(raised, this.logger) ?? raised;
    if (exception instanceof GuardrailsApiError) {
      res.status(exception.getStatus()).json(envelope(exception.endpoint, exception.data));
      return;
    }
    if (exception instanceof ValidationFailedError) {
      // The edge layer's refusals (NUL, invalid UTF-8, nesting), in the API's validation shape.
      res.status(exception.status).json(envelope('error', { error: 'validation_failed', message: exception.message, errors: errorsByField(exception.errors) }));
      return;
    }
    if (exception instanceof DomainError && exception.status < 500) {
      res.status(exception.status).json(envelope('error', { error: exception.code, message: exception.message }));
      return;
    }
    const status = exception instanceof HttpException ? exception.getStatus() : 500;
    if (status >= 500) this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    const body = exception instanceof HttpException ? exception.getResponse() : undefined;
    const detail = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const message = status >= 500 ? 'internal error' : String(detail['message'] ?? (exception as Error).message ?? codeFor(status));
    res.status(status).json(envelope('error', { error: typeof detail['code'] === 'string' ? detail['code'] : codeFor(status), message }));
  }
}
