import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { catchError, concatMap, from, mergeMap, Observable, throwError } from 'rxjs';
import type { KbRequest } from '../auth/kb-principal';
import { RequestLogRepository } from './request-log.repository';
import { errorClassOf, requestIdOf, routePattern, statusOfError, targetIdOf } from './http-facts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const AUDITED = /^\/api\/(admin|system-admin)(\/|$)/;

/**
 * Records every mutation under /api/admin and /api/system-admin, whether it succeeded or failed
 * past the gates: actor, tenant, method, route pattern, status and target id. Never bodies,
 * queries or headers (they carry secrets). The row is written before the answer leaves, so what
 * the caller saw succeed is on record.
 */
@Injectable()
export class ActivityLogInterceptor implements NestInterceptor {
  private readonly logger = new Logger('ActivityLog');

  constructor(private readonly logs: RequestLogRepository) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const req = ctx.switchToHttp().getRequest<KbRequest>();
    if (READS.has(req.method) || !AUDITED.test(req.path)) return next.handle();
    const res = ctx.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      concatMap(async (value: unknown) => {
        await this.record(req, res, res.statusCode, 'success', createdIdOf(value));
        return value;
      }),
      catchError((error: unknown) =>
        from(this.record(req, res, statusOfError(error), 'failure')).pipe(
          mergeMap(() => throwError(() => error)),
        ),
      ),
    );
  }

  private async record(
    req: KbRequest,
    res: Response,
    status: number,
    outcome: 'success' | 'failure',
    createdId: string | null = null,
  ): Promise<void> {
    const p = req.kbPrincipal;
    if (!p) return;
    try {
      await this.logs.recordActivity({
        tenantId: p.tenantId,
        actorUserId: p.userId,
        actorKind: p.kind,
        method: req.method,
        route: routePattern(req),
        status,
        outcome,
        targetId: targetIdOf(req) ?? createdId,
        requestId: requestIdOf(req, res),
      });
    } catch (e) {
      this.logger.warn(`activity log row not written: ${errorClassOf(e)}`);
    }
  }
}

/** A creation names its target only in the answer: `{data: {id}}` or `{id}`. */
function createdIdOf(value: unknown): string | null {
  const v = value as { id?: unknown; data?: { id?: unknown } } | null | undefined;
  const id = v?.data?.id ?? v?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id).slice(0, 200) : null;
}
