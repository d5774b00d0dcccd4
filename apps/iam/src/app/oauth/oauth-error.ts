import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { clientDataError, DomainError } from '@platform/observability';
import type { Response } from 'express';

/** Client errors that keep their own status under invalid_request: no such route or method, a body too large or in a charset not read. */
const KEPT_STATUSES = new Set([404, 405, 413, 415]);

/** RFC 6749 §5.2 error: `{ error, error_description }` with the matching status. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }

  static invalidRequest(d: string) {
    return new OAuthError('invalid_request', d);
  }
  static invalidClient(d: string, basic = false) {
    return new OAuthError('invalid_client', d, 401, basic ? { 'WWW-Authenticate': 'Basic realm="OAuth"' } : {});
  }
  static invalidGrant(d: string) {
    return new OAuthError('invalid_grant', d);
  }
  static unauthorizedClient(d: string) {
    return new OAuthError('unauthorized_client', d);
  }
  static unsupportedGrantType(d: string) {
    return new OAuthError('unsupported_grant_type', d);
  }
  static invalidScope(d: string) {
    return new OAuthError('invalid_scope', d);
  }
  /** RFC 8707 §2: a resource that is unknown, malformed or not part of the grant. */
  static invalidTarget(d: string) {
    return new OAuthError('invalid_target', d);
  }
  /** RFC 9449 §5: the DPoP proof cannot be accepted. */
  static invalidDpopProof(d: string) {
    return new OAuthError('invalid_dpop_proof', d);
  }
}

/** The OAuth endpoints answer in RFC 6749's shape, never problem+json, and never cache. */
@Catch()
export class OAuthErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('OAuth');

  catch(raised: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    // Client input Postgres could not take is an invalid request (400), not a server error.
    const exception = clientDataError(raised, this.logger) ?? raised;
    let err: OAuthError;
    if (exception instanceof OAuthError) err = exception;
    else if (exception instanceof HttpException && exception.getStatus() === 429) {
      err = new OAuthError('rate_limited', 'too many requests', 429);
    } else if (exception instanceof HttpException && exception.getStatus() < 500) {
      const status = exception.getStatus();
      err = new OAuthError('invalid_request', exception.message, KEPT_STATUSES.has(status) ? status : 400);
    } else if (exception instanceof DomainError && exception.status < 500) {
      // The edge layer's refusals (NUL, invalid UTF-8, nesting) name the field in the description.
      err = new OAuthError('invalid_request', exception.message, KEPT_STATUSES.has(exception.status) ? exception.status : 400);
    } else {
      this.logger.error(exception instanceof Error ? exception.stack : String(exception));
      err = new OAuthError('server_error', 'the authorization server failed to handle the request', 500);
    }
    res.status(err.status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache', ...err.headers });
    res.json({ error: err.error, error_description: err.description });
  }
}
