import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';

export const API_MIDDLEWARE = Symbol.for('guardrails-admin.API_MIDDLEWARE');

/** Runs the host middleware of `api.middleware` in order; the first refusal ends the request. */
@Injectable()
export class ApiMiddlewareGuard implements CanActivate {
  constructor(@Inject(API_MIDDLEWARE) private readonly guards: CanActivate[]) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    for (const guard of this.guards) {
      if (!(await guard.canActivate(context))) return false;
    }
    return true;
  }
}
