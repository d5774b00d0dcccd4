import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { runAsTenant } from '@platform/database';
import { handleInside } from '@platform/runtime';
import type { Observable } from 'rxjs';
import { KB_GLOBAL } from '../auth/gates';
import { requestTenantOf } from './request-tenant';

/**
 * Runs the route handler (and the interceptors inside this one) as the request's tenant, so every
 * query it sends is confined to that tenant's rows by row-level security, whatever its own WHERE
 * says. Guards run before interceptors: authentication and tenant resolution keep the owner's reach.
 */
@Injectable()
export class TenantScopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const platformWide = this.reflector.getAllAndOverride<boolean>(KB_GLOBAL, [ctx.getHandler(), ctx.getClass()]) === true;
    const tenant = requestTenantOf(ctx.switchToHttp().getRequest(), platformWide);
    if (tenant === undefined) return next.handle();
    return handleInside(next, (run) => runAsTenant(tenant, run));
  }
}
