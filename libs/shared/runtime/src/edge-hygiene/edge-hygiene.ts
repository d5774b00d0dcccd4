import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { HttpException } from '@nestjs/common';
import { isQuietPath, platformHttpLogger, requestIdFor, ValidationFailedError, writeAccessLog } from '@platform/observability';
import express, { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import {
  DEPTH_MESSAGE,
  EdgeProblem,
  findInParsed,
  formEncodedProblem,
  jsonDepthExceeds,
  jsonNumberUnderflows,
  LONE_SURROGATE_MESSAGE,
  NUL_MESSAGE,
  NUMBER_RANGE_MESSAGE,
  pathSegmentProblem,
  textProblem,
  UNSAFE_NUMBER_MESSAGE,
  UTF8_MESSAGE,
} from './text-checks';

/**
 * Headers whose values the services use as data: stored (Idempotency-Key), looked up (X-Tenant-Id,
 * X-Widget-Key) or echoed and logged (X-Request-Id). Node reads header bytes as latin1 and its
 * parser already refuses NUL, so what is left to refuse is bytes that are not UTF-8.
 */
export const DATA_HEADERS = ['x-request-id', 'x-tenant-id', 'idempotency-key', 'x-widget-key'] as const;

const NON_ASCII = /[\u0080-\uffff]/;

/** The first data header whose bytes are not usable text, named `header.<name>`. */
export function dataHeaderProblem(headers: IncomingMessage['headers']): EdgeProblem | undefined {
  for (const name of DATA_HEADERS) {
    const value = headers[name];
    if (typeof value !== 'string' || !NON_ASCII.test(value)) continue;
    const message = textProblem(Buffer.from(value, 'latin1'));
    if (message) return { field: `header.${name}`, message };
  }
  return undefined;
}

const STARTED = Symbol('edge.started');
type TimedRequest = IncomingMessage & { [STARTED]?: number };

/**
 * Passes a refusal on to the app's error handling and makes sure it is logged: the layer runs
 * before the access logger, which never sees a request refused here, so the line pino-http would
 * write (request id, status, time) is written when the answer is done.
 */
function refuseWith(req: TimedRequest, res: ServerResponse, next: NextFunction, err: unknown): void {
  const logger = platformHttpLogger();
  if (logger && !isQuietPath(req.url)) {
    const started = req[STARTED] ?? performance.now();
    // The id pino-http would have given the request (and put on the answer).
    const logged = req as TimedRequest & { id: string };
    logged.id ??= requestIdFor(req, res);
    res.once('close', () => writeAccessLog(logger, logged, res, performance.now() - started));
  }
  next(err);
}

/** Routes that share a body limit, named by their exact paths. */
export interface BodyLimitGroup {
  paths: string[];
  bytes: number;
}

export interface EdgeHygieneOptions {
  /** Body limit (bytes) of every route in no group. */
  defaultBodyLimit: number;
  /** The first group naming the request's path sets its limit (small ones for unauthenticated routes). */
  bodyLimits?: BodyLimitGroup[];
}

/** What the checks refuse, raised from inside the body parser (it keeps this error's status). */
class EdgeRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly problem?: EdgeProblem,
  ) {
    super(message);
  }
}

const UNSUPPORTED_CHARSET = 'Request bodies are read as UTF-8 only.';

/**
 * A body-parser failure as the HTTP error every service filter already answers in its own shape:
 * a check's refusal becomes a 422 naming the field; the parser's own 4xx (malformed, too large,
 * unsupported charset or encoding, aborted) an HttpException with a code; anything else unchanged.
 */
export function edgeError(err: unknown): unknown {
  if (err instanceof EdgeRefusal) {
    return err.problem ? new ValidationFailedError([err.problem]) : new HttpException({ message: err.message, code: 'unsupported_media_type' }, err.status);
  }
  const e = err as { status?: unknown; expose?: unknown; type?: unknown; limit?: unknown } | null;
  if (!e || typeof e.status !== 'number' || e.status < 400 || e.status >= 500 || e.expose !== true) return err;
  switch (e.status) {
    case 413:
      return new HttpException({ message: 'The request body is larger than the configured limit.', code: 'payload_too_large' }, 413);
    case 415:
      return new HttpException({ message: UNSUPPORTED_CHARSET + ' Content encodings: identity, gzip, deflate, br.', code: 'unsupported_media_type' }, 415);
    default:
      // The filters name a 400 themselves (bad_request, invalid_request, …).
      return new HttpException({ message: e.type === 'entity.parse.failed' ? 'The request body is malformed.' : (err as Error).message || 'Bad request.' }, e.status);
  }
}

function isUtf8Charset(encoding: string): boolean {
  const lower = encoding.toLowerCase();
  return lower === 'utf-8' || lower === 'utf8';
}

function refuse(field: string, message: string): never {
  throw new EdgeRefusal(422, message, { field, message });
}

/** The first field of an unparsed JSON body whose strings hold invalid UTF-8 (read leniently to find it). */
function invalidUtf8Field(buf: Buffer): string {
  try {
    return findInParsed(JSON.parse(buf.toString('utf8')), 'body', '\uFFFD')?.field ?? 'body';
  } catch {
    return 'body';
  }
}

/** Runs before JSON.parse: UTF-8 only, bytes valid, nesting within the limit. */
function verifyJson(_req: Request, _res: Response, buf: Buffer, encoding: string): void {
  if (!isUtf8Charset(encoding)) throw new EdgeRefusal(415, UNSUPPORTED_CHARSET);
  if (jsonDepthExceeds(buf)) refuse('body', DEPTH_MESSAGE);
  if (!isUtf8(buf)) refuse(invalidUtf8Field(buf), UTF8_MESSAGE);
  if (jsonNumberUnderflows(buf)) refuse('body', NUMBER_RANGE_MESSAGE);
}

/** Runs before the form is parsed: UTF-8 only, and every percent-decoded name and value usable text. */
function verifyForm(_req: Request, _res: Response, buf: Buffer, encoding: string): void {
  if (!isUtf8Charset(encoding)) throw new EdgeRefusal(415, UNSUPPORTED_CHARSET);
  if (!isUtf8(buf)) refuse('body', UTF8_MESSAGE);
  const problem = formEncodedProblem(buf.toString('utf8'), 'body');
  if (problem) refuse(problem.field, problem.message);
}

/** After parsing: NUL in any key or value (JSON's `\u0000` escape) and integers no client sends exactly. */
function parsedProblem(body: unknown): EdgeProblem | undefined {
  const found = findInParsed(body, 'body', '\0', { unsafeNumbers: true, loneSurrogates: true });
  return found && { field: found.field, message: { number: UNSAFE_NUMBER_MESSAGE, range: NUMBER_RANGE_MESSAGE, surrogate: LONE_SURROGATE_MESSAGE, text: NUL_MESSAGE }[found.kind] };
}

function limitFor(path: string, options: EdgeHygieneOptions): number {
  for (const group of options.bodyLimits ?? []) {
    if (group.paths.includes(path)) return group.bytes;
  }
  return options.defaultBodyLimit;
}

type ParserKind = 'json' | 'urlencoded';

/**
 * The app's body parser of one kind, with the route group's limit and the checks. Named as
 * Express's own (`jsonParser`, `urlencodedParser`) so Nest adds no default parser next to it and
 * lean routes run it too (applyEdgeHygiene returns it among the middleware it installs).
 */
function bodyParser(kind: ParserKind, options: EdgeHygieneOptions): RequestHandler {
  const byLimit = new Map<number, RequestHandler>();
  const parserFor = (limit: number): RequestHandler => {
    let parser = byLimit.get(limit);
    if (!parser) {
      parser =
        kind === 'json'
          ? express.json({ limit, verify: verifyJson })
          : // `extended` as Nest's default parser had it: `a[b]=1` forms keep their objects.
            express.urlencoded({ limit, extended: true, verify: verifyForm });
      byLimit.set(limit, parser);
    }
    return parser;
  };
  const parse: RequestHandler = (req, res, next) => {
    const before: unknown = req.body;
    parserFor(limitFor(req.path, options))(req, res, (err?: unknown) => {
      if (err) return refuseWith(req, res, next, edgeError(err));
      // Only a body this parser just read (the other kind's parser leaves req.body as it was).
      if (req.body !== before) {
        const problem = parsedProblem(req.body);
        if (problem) return refuseWith(req, res, next, new ValidationFailedError([problem]));
      }
      next();
    });
  };
  Object.defineProperty(parse, 'name', { value: kind === 'json' ? 'jsonParser' : 'urlencodedParser' });
  return parse;
}

interface RouteLayer {
  route?: { path?: unknown };
}

/** The route parameter a path segment stands for, read from the app's route templates (`/docs/:id` → id). */
function paramNameAt(app: Express, rawPath: string, index: number): string | undefined {
  const segments = rawPath.split('/').slice(1);
  const stack = ((app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? []) as RouteLayer[];
  for (const layer of stack) {
    const templates = layer.route ? [layer.route.path].flat() : [];
    for (const template of templates) {
      if (typeof template !== 'string') continue;
      const parts = template.split('/').slice(1);
      if (parts.length !== segments.length || !parts[index]?.startsWith(':')) continue;
      if (parts.every((p, i) => p.startsWith(':') || p === segments[i])) return parts[index]!.slice(1).replace(/\W.*$/, '');
    }
  }
  return undefined;
}

/**
 * Data headers, path and query string, checked before routing: every data header and every
 * percent-decoded segment, name and value is valid UTF-8 without NUL. A path problem names the
 * route parameter (`path.id`) when a route has one there, else the segment's position.
 */
function requestCheck(app: Express): RequestHandler {
  return function edgeRequestCheck(req, res, next: NextFunction) {
    (req as TimedRequest)[STARTED] = performance.now();
    const header = dataHeaderProblem(req.headers);
    if (header) return refuseWith(req, res, next, new ValidationFailedError([header]));
    const url = req.url;
    // Raw control bytes never get past Node's HTTP parser; only percent escapes can smuggle them in.
    if (!url.includes('%')) return next();
    const q = url.indexOf('?');
    const rawPath = q < 0 ? url : url.slice(0, q);
    const segment = pathSegmentProblem(rawPath);
    if (segment) {
      const name = paramNameAt(app, rawPath, segment.index);
      return refuseWith(req, res, next, new ValidationFailedError([{ field: name ? `path.${name}` : `path.${segment.index}`, message: segment.message }]));
    }
    const problem = q < 0 ? undefined : formEncodedProblem(url.slice(q + 1), 'query');
    if (problem) return refuseWith(req, res, next, new ValidationFailedError([problem]));
    next();
  };
}

/**
 * The platform's edge hygiene on an Express app, registered before any route: what no route can
 * use (NUL or invalid UTF-8 in a data header, the path, query or body; JSON nested deeper than the
 * limit; integers beyond 2^53 - 1; a body over its route group's limit) is refused before it
 * reaches validation or SQL, with errors every service filter answers in its own shape (422 naming
 * the field, 413, 415), and an access-log line for each refusal. Returns the middleware it
 * installed, in order, for lean routes to run the same.
 */
export function applyEdgeHygiene(app: Express, options: EdgeHygieneOptions): RequestHandler[] {
  const chain = [requestCheck(app), bodyParser('json', options), bodyParser('urlencoded', options), unreadBodyCheck()];
  for (const middleware of chain) app.use(middleware);
  return chain;
}

export const UNSUPPORTED_MEDIA_TYPE = 'Request bodies are read as application/json or application/x-www-form-urlencoded (UTF-8) only.';

/** Whether the request carries body bytes (RFC 9112 §6.3: a Transfer-Encoding, or a Content-Length above 0). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A body neither parser read (text/plain, XML, multipart, no content type at all) would reach a
 * handler as `undefined`, which no route takes: refused with 415 instead, whatever the route.
 */
function unreadBodyCheck(): RequestHandler {
  return function edgeUnreadBody(req, res, next) {
    if (req.body !== undefined || !hasBody(req)) return next();
    refuseWith(req, res, next, new HttpException({ message: UNSUPPORTED_MEDIA_TYPE, code: 'unsupported_media_type' }, 415));
  };
}
