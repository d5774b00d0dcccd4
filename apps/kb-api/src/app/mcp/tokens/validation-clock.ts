import { AsyncLocalStorage } from 'node:async_hooks';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Clock, handleInside } from '@platform/runtime';
import type { Observable } from 'rxjs';

/**
 * The Clock of the app handling the current request, for class-validator constraints that decide by
 * time. class-validator builds a constraint itself, once per process, outside Nest's injector, so a
 * constraint cannot be given the app's Clock; it asks for the one of the request being validated.
 * Scoped to the request's async context: two apps in one process (tests) keep their own clocks.
 */
const requestClocks = new AsyncLocalStorage<Clock>();

/**
 * Runs the route with the app's Clock as the validation clock. Interceptors run before pipes, and
 * the pipes and the handler run in the async context the rest of the chain is subscribed in, so
 * the global validation pipe sees this Clock (on the Nest route and on a lean route alike).
 */
@Injectable()
export class ValidationClockInterceptor implements NestInterceptor {
  constructor(private readonly clock: Clock) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return handleInside(next, (run) => requestClocks.run(this.clock, run));
  }
}

/** The Clock to decide by while validating this request's input; a route without ValidationClockInterceptor has none. */
export function validationClock(): Clock {
  const clock = requestClocks.getStore();
  if (!clock) throw new Error('a time-relative constraint is validated outside ValidationClockInterceptor (add it to the route)');
  return clock;
}
