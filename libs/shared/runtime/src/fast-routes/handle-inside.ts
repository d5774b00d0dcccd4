import type { CallHandler } from '@nestjs/common';
import { Observable } from 'rxjs';

/**
 * The rest of an interceptor's chain (pipes, the method, inner interceptors) run inside `scope`,
 * e.g. `(fn) => storage.run(value, fn)` for an AsyncLocalStorage. Subscribing inside the scope is
 * what carries it on both request paths: Nest binds `next.handle()` to the context it was called in,
 * the lean path (lean-route-handler.ts) runs the chain in the context it is subscribed in.
 */
export function handleInside(next: CallHandler, scope: <T>(run: () => T) => T): Observable<unknown> {
  return new Observable((subscriber) => scope(() => next.handle().subscribe(subscriber)));
}
