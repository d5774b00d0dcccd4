import { REQUEST_ID_HEADER } from '@platform/observability';
import type { Response } from 'express';
import { KbError, kbAnswerOf } from '../errors/kb-errors';
import type { KbRequest } from '../auth/kb-principal';

/**
 * The matched route's pattern (`/api/admin/users/:user`), never the concrete path with its ids or
 * query. A lean route (@LeanRoute) has an exact path, which its request carries as Express's would;
 * without a route (nothing matched) it is the path under the mount point, if any.
 */
export function routePattern(req: KbRequest): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? path : (req.baseUrl ?? '') + (req.path ?? '');
}

export function requestIdOf(req: KbRequest, res: Response): string | null {
  const header = res.getHeader(REQUEST_ID_HEADER);
  if (typeof header === 'string') return header;
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/**
 * The status KbErrorFilter will answer for this error, as it decides it (kbAnswerOf): a database
 * data exception answered 422 or a constraint race answered 409 is logged as that, not as a 500.
 */
export const statusOfError = (e: unknown): number => kbAnswerOf(e).status;

export function errorClassOf(e: unknown): string {
  return e instanceof Error ? e.constructor.name : typeof e;
}

export const errorCodeOf = (e: unknown): string | null => (e instanceof KbError ? e.code : null);

/** The route's target: the `:id`-like parameter, else the last one. */
export function targetIdOf(req: KbRequest): string | null {
  const params = (req.params ?? {}) as Record<string, string>;
  const values = Object.entries(params);
  if (values.length === 0) return null;
  const id = values.find(([k]) => k === 'id') ?? values[values.length - 1];
  return String(id[1]).slice(0, 200);
}
