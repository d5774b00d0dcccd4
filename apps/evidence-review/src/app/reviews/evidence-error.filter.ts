import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { EvidenceError } from '@platform/evidence-engine';
import { clientDataError, DomainError, ValidationFailedError } from '@platform/observability';
import type { Response } from 'express';

/** The evidence review API's error body (reference §1.14): `{ error: { code, message, details } }`. */
@Catch()
export class EvidenceErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('EvidenceReview');

  catch(raised: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const exception = clientDataError(raised, this.logger) ?? raised;
    let status = 500;
    let code = 'internal_error';
    let message = 'The review could not be completed.';
    let details: unknown[] = [];
    if (exception instanceof EvidenceError) {
      ({ status, code, message } = exception);
      details = exception.details;
    } else if (exception instanceof ValidationFailedError) {
      status = 422;
      code = 'validation_error';
      message = exception.message;
      details = exception.errors.map((e) => ({ path: e.field, message: e.message }));
    } else if (exception instanceof DomainError) {
      ({ status, code, message } = exception);
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      const body = exception.getResponse() as { code?: string; message?: string } | string;
      const byStatus: Record<number, string> = { 400: 'bad_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 413: 'payload_too_large' };
      code = typeof body === 'object' && body.code ? body.code : byStatus[status] ?? `http_${status}`;
      message = typeof body === 'object' && typeof body.message === 'string' ? body.message : exception.message;
    } else if ((exception as { type?: string })?.type === 'entity.too.large') {
      status = 413;
      code = 'payload_too_large';
      message = 'The request body is larger than the configured limit.';
    }
    if (status >= 500 && code === 'internal_error') this.logger.error(exception instanceof Error ? exception.stack : String(exception));
    res.status(status).json({ error: { code, message, details } });
  }
}
