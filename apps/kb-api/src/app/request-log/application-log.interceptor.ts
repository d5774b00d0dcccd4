import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { catchError, from, mergeMap, Observable, throwError } from 'rxjs';
import type { KbRequest } from '../auth/kb-principal';
import { RequestLogRepository } from './request-log.repository';
import { errorClassOf, errorCodeOf, requestIdOf, routePattern, statusOfError } from './http-facts';

/** A failed dependency (model provider down, a feature switched off) rather than a fault of kb-api itself. */
const WARNING_STATUSES = new Set([502, 503, 504]);

/**
 * Records every 5xx a route answers into kb_application_logs: route pattern, status, error class
 * and code, request id, tenant and user. Never the body or the error message, which may carry data.
 * The error then goes on to KbErrorFilter unchanged.
 */
@Injectable()
export class ApplicationLogInterceptor implements NestInterceptor {
  private readonly logger = new Logger('ApplicationLog');

  constructor(private readonly logs: RequestLogRepository) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const req = ctx.switchToHttp().getRequest<KbRequest>();
    const res = ctx.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      catchError((error: unknown) => {
        const status = statusOfError(error);
        if (status < 500) return throwError(() => error);
        return from(this.record(req, res, status, error)).pipe(
          mergeMap(() => throwError(() => error)),
        );
      }),
    );
  }

  private async record(
    req: KbRequest,
    res: Response,
    status: number,
    error: unknown,
  ): Promise<void> {
    try {
      await this.logs.recordApplication({
        tenantId: req.kbPrincipal?.tenantId ?? null,
        level: WARNING_STATUSES.has(status) ? 'warning' : 'error',
        method: req.method,
        route: routePattern(req),
        status,
        errorClass: errorClassOf(error),
        errorCode: errorCodeOf(error),
        requestId: requestIdOf(req, res),
        userId: req.kbPrincipal?.userId ?? null,
      });
    } catch (e) {
      // The caller gets the original error; losing this row must not replace it.
      this.logger.warn(`application log row not written: ${errorClassOf(e)}`);
    }
  }
}
