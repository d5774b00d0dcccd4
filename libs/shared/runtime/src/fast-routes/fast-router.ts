import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Express, Request, Response } from 'express';
import type { Logger as PinoInstance } from 'pino';
import { HttpDurationHistogram, requestIdFor, writeAccessLog } from '@platform/observability';

/** A request on the lean path: Express's request (req.ip, req.is, …) without Express's routing. */
export type FastRequest = Request & { id: string };

/**
 * One hot endpoint served from the HTTP server's `request` event, ahead of Express and Nest. The
 * same route normally stays registered in Nest too: requests the lean path declines (`accepts`
 * false, a query string, another method) reach it there.
 *
 * What the lean path gives up, to stay cheap: no per-request child logger in async-local storage,
 * so lines a service logs while handling it carry no `req` binding (the access line does).
 */
export interface FastRoute {
  method: string;
  /** Exact path; the metrics label, as Express's route template would be. */
  path: string;
  /** Only requests this accepts take the lean path (e.g. the one content type it parses). */
  accepts?: (req: IncomingMessage) => boolean;
  /** Answers the request, errors included (in the area's own error shape). */
  handle: (req: FastRequest, res: Response) => Promise<void>;
}

/** What every lean request gets from the platform, resolved from the running app. */
export interface FastRouteEssentials {
  /** Whose request/response prototypes fast handlers get (res.json, req.ip under 'trust proxy'). */
  express: Express;
  /** Access log destination; read per request because the app sets its logger up during init. */
  logger: () => PinoInstance | undefined;
  duration?: HttpDurationHistogram;
  isDraining?: () => boolean;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

const ROUTES = Symbol.for('platform.fastRoutes');
type ServerWithRoutes = Server & { [ROUTES]?: Map<string, FastRoute> };

/**
 * Puts `routes` in front of the app's own request listener on `server`. Calling it again adds
 * routes to the same table (several modules may each register theirs); everything else reaches
 * the app exactly as before.
 */
export function mountFastRoutes(server: Server, routes: FastRoute[], essentials: FastRouteEssentials): void {
  const host = server as ServerWithRoutes;
  let table = host[ROUTES];
  if (!table) {
    const own = new Map<string, FastRoute>();
    table = own;
    host[ROUTES] = own;
    const appListeners = server.listeners('request') as RequestListener[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const route = own.get(`${req.method} ${req.url}`);
      if (route && (route.accepts?.(req) ?? true)) {
        serve(route, req, res, essentials);
        return;
      }
      for (const listener of appListeners) listener(req, res);
    });
  }
  for (const route of routes) table.set(`${route.method} ${route.path}`, route);
}

/** The lean routes mounted on `server` (none where mountFastRoutes never ran), e.g. for a test to walk them all. */
export function mountedFastRoutes(server: Server): FastRoute[] {
  return [...((server as ServerWithRoutes)[ROUTES]?.values() ?? [])];
}

function serve(route: FastRoute, rawReq: IncomingMessage, rawRes: ServerResponse, e: FastRouteEssentials): void {
  const started = performance.now();
  const req = rawReq as FastRequest;
  const res = rawRes as unknown as Response;
  // What Express's app.handle does before routing, so filters and guards written against Express work unchanged.
  req.res = res;
  res.req = req;
  req.originalUrl = req.url;
  // What Express's router sets on a matched request: the mount path (none) and the route, whose
  // path is its template (here the exact path), so what reads them (request logs) sees the route.
  req.baseUrl = '';
  req.route = { path: route.path, methods: { [route.method.toLowerCase()]: true } };
  Object.setPrototypeOf(req, e.express.request);
  Object.setPrototypeOf(res, e.express.response);
  res.locals = Object.create(null);
  if (e.express.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
  req.id = requestIdFor(rawReq, rawRes);
  // A draining replica still answers (as Nest routes do) but ends each keep-alive connection after
  // its response, so clients reconnect to replicas that stay.
  if (e.isDraining?.()) res.setHeader('Connection', 'close');

  rawRes.once('close', () => {
    const seconds = (performance.now() - started) / 1000;
    if (rawRes.writableFinished) e.duration?.observe({ method: route.method, route: route.path, status: String(rawRes.statusCode) }, seconds);
    const logger = e.logger();
    if (logger) writeAccessLog(logger, req, rawRes, Math.round(seconds * 1000));
  });

  route.handle(req, res).catch((err: unknown) => {
    // Handlers answer their own errors; this is the last resort for a handler bug.
    e.logger()?.error({ err, req_id: req.id }, 'fast route failed');
    if (!rawRes.headersSent) {
      rawRes.statusCode = 500;
      rawRes.end();
    } else rawRes.destroy();
  });
}
