import type { IncomingMessage } from 'node:http';
import { SetMetadata } from '@nestjs/common';

export const LEAN_ROUTE = 'platform:lean-route';

export interface LeanRouteOptions {
  /**
   * Only requests this accepts take the lean path (e.g. the one content type or credential kind it
   * is measured for); the others, and every request with a query string, reach the same method
   * through Nest.
   */
  accepts?: (req: IncomingMessage) => boolean;
}

/**
 * Serves this controller method on the lean request path as well (docs/benchmarks.md): the HTTP
 * server answers it ahead of Express routing and Nest's per-request pipeline, with the same
 * pre-routing middleware the app registered (edge hygiene, body parsers), the route's own guards,
 * interceptors, pipes and parameter decorators, the method itself, Nest's reply and the route's
 * exception filters. A method the mechanism cannot serve exactly is refused at boot.
 */
export const LeanRoute = (options: LeanRouteOptions = {}): MethodDecorator => SetMetadata(LEAN_ROUTE, options);

/** An `accepts` for lean routes that parse one body type: requests with that media type (parameters ignored). */
export function hasMediaType(mediaType: string): (req: IncomingMessage) => boolean {
  const wanted = mediaType.toLowerCase();
  return (req) => {
    const type = req.headers['content-type'];
    if (!type) return false;
    const semi = type.indexOf(';');
    return (semi < 0 ? type : type.slice(0, semi)).trim().toLowerCase() === wanted;
  };
}
