import {
  ArgumentMetadata,
  CallHandler,
  CanActivate,
  ExceptionFilter,
  ForbiddenException,
  NestInterceptor,
  PipeTransform,
  RequestMethod,
  Type,
} from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  EXCEPTION_FILTERS_METADATA,
  FILTER_CATCH_EXCEPTIONS,
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  PIPES_METADATA,
  REDIRECT_METADATA,
  RENDER_METADATA,
  RESPONSE_PASSTHROUGH_METADATA,
  ROUTE_ARGS_METADATA,
  SSE_METADATA,
  VERSION_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { Request, RequestHandler, Response } from 'express';
import { defer, from, isObservable, lastValueFrom, mergeAll, mergeMap, Observable, of } from 'rxjs';
import { FastRequest, FastRoute } from './fast-router';
import { LeanExecutionContext } from './lean-execution-context';
import { asNestException, runMiddlewareChain } from './nest-bridge';

type Handler = (...args: unknown[]) => unknown;
type Enhancer<T> = T | Type<T>;

/** The app-wide enhancers a route gets before its own, as Nest orders them. */
export interface GlobalEnhancers {
  guards: CanActivate[];
  interceptors: NestInterceptor[];
  pipes: PipeTransform[];
  filters: ExceptionFilter[];
}

/** What building a lean route needs from the running app. */
export interface LeanRouteDeps {
  /** A class enhancer (guard, interceptor, pipe, filter) as the DI container made it for the route. */
  resolve: <T>(type: Type<T>) => T;
  globals: GlobalEnhancers;
  /** The middleware the app runs before routing (edge hygiene, body parsers). */
  prelude: RequestHandler[];
  /** Nest's HTTP adapter: its reply() is what the Nest route answers with. */
  adapter: AbstractHttpAdapter;
  /** What answers an error no filter catches (Nest's BaseExceptionFilter). */
  fallbackFilter: ExceptionFilter;
}

interface ParamSource {
  index: number;
  type: RouteParamtypes | 'custom';
  data: unknown;
  pipes: PipeTransform[];
  factory?: (data: unknown, ctx: LeanExecutionContext) => unknown;
}

const PIPEABLE = new Set<RouteParamtypes | 'custom'>([RouteParamtypes.BODY, RouteParamtypes.QUERY, 'custom']);
const PIPE_TYPE: Partial<Record<RouteParamtypes | 'custom', ArgumentMetadata['type']>> = {
  [RouteParamtypes.BODY]: 'body',
  [RouteParamtypes.QUERY]: 'query',
  custom: 'custom',
};

const meta = <T>(key: string, target: object, property?: string | symbol): T | undefined =>
  property === undefined ? Reflect.getMetadata(key, target) : Reflect.getMetadata(key, target, property);

function joinPath(...parts: unknown[]): string {
  const segments = parts.flatMap((p) => {
    if (Array.isArray(p)) {
      if (p.length !== 1) throw new Error('a lean route has exactly one path');
      p = p[0];
    }
    return typeof p === 'string' ? p.split('/').filter(Boolean) : [];
  });
  return `/${segments.join('/')}`;
}

/** The first filter whose @Catch() list fits the error (an empty list catches everything). */
function pickFilter(filters: ExceptionFilter[], err: unknown): ExceptionFilter | undefined {
  return filters.find((f) => {
    const types = meta<Type<unknown>[]>(FILTER_CATCH_EXCEPTIONS, f.constructor) ?? [];
    return types.length === 0 || types.some((t) => err instanceof t);
  });
}

/** Nest's guard rule: every guard in order, each may answer a promise or an observable. */
async function activates(guards: CanActivate[], ctx: LeanExecutionContext): Promise<boolean> {
  for (const guard of guards) {
    const result = guard.canActivate(ctx);
    const allowed = isObservable(result) ? await lastValueFrom(result) : await result;
    if (!allowed) return false;
  }
  return true;
}

/**
 * Interceptors around the handler, outermost first, chained as Nest's consumer chains them. One
 * difference, kept for speed: Nest binds what follows each `next.handle()` to the async context
 * handle() was called in (an AsyncResource per interceptor, ≈ 10 µs each here); the lean path runs
 * it in the context it is subscribed in. An interceptor that scopes async context (an
 * AsyncLocalStorage) must therefore subscribe inside its scope (handleInside does), as
 * TenantScopeInterceptor and ValidationClockInterceptor do; returning `next.handle()` from inside
 * `als.run()` reaches the method on the Nest route only.
 */
function intercept(interceptors: NestInterceptor[], ctx: LeanExecutionContext, run: () => Promise<unknown>): Promise<unknown> {
  const step = (i: number): Observable<unknown> => {
    if (i >= interceptors.length) return defer(() => from(run())).pipe(mergeMap((r) => (isObservable(r) ? r : of(r))));
    const next: CallHandler = { handle: () => step(i + 1) };
    return defer(() => from(Promise.resolve(interceptors[i]!.intercept(ctx, next)))).pipe(mergeAll());
  };
  return lastValueFrom(step(0), { defaultValue: undefined });
}

/**
 * Builds the lean route of `controller.method` (an instance from the container): everything the
 * Nest route does for it, in Nest's order, from public metadata and the container's instances.
 * Throws (at boot) for what it cannot serve exactly.
 */
export function buildLeanRoute(controller: object, methodName: string, accepts: FastRoute['accepts'], deps: LeanRouteDeps): FastRoute {
  const type = controller.constructor as Type<unknown>;
  const handler = (controller as Record<string, Handler>)[methodName];
  if (typeof handler !== 'function') throw new Error(`${type.name}.${methodName} is not a handler`);
  const name = `${type.name}.${methodName}`;
  const refuse = (why: string) => new Error(`@LeanRoute() on ${name}: ${why}`);

  for (const key of [REDIRECT_METADATA, RENDER_METADATA, SSE_METADATA]) if (meta(key, handler) !== undefined) throw refuse(`${key} routes are not served on the lean path`);
  if (meta(VERSION_METADATA, handler) !== undefined || meta(VERSION_METADATA, type) !== undefined) throw refuse('versioned routes are not served on the lean path');
  const requestMethod = meta<RequestMethod>(METHOD_METADATA, handler);
  if (requestMethod === undefined || requestMethod === RequestMethod.ALL) throw refuse('needs one HTTP method');
  const method = RequestMethod[requestMethod];
  const path = joinPath(meta(PATH_METADATA, type), meta(PATH_METADATA, handler));
  if (path.includes(':') || path.includes('*')) throw refuse('a lean route has an exact path (no parameters)');

  const own = <T>(key: string): T[] => [...(meta<Enhancer<T>[]>(key, type) ?? []), ...(meta<Enhancer<T>[]>(key, handler) ?? [])].map((e) => (typeof e === 'function' ? deps.resolve(e as Type<T>) : e));
  const guards = [...deps.globals.guards, ...own<CanActivate>(GUARDS_METADATA)];
  const interceptors = [...deps.globals.interceptors, ...own<NestInterceptor>(INTERCEPTORS_METADATA)];
  const pipes = [...deps.globals.pipes, ...own<PipeTransform>(PIPES_METADATA)];
  // Nest tries the method's filters first, then the class's, then the global ones (last added first).
  const filters = [...deps.globals.filters, ...own<ExceptionFilter>(EXCEPTION_FILTERS_METADATA)].reverse();
  // Errors before routing (edge hygiene, body parsers) reach only the global filters, as on the Nest route.
  const preludeFilters = [...deps.globals.filters].reverse();

  const paramtypes = meta<unknown[]>('design:paramtypes', controller, methodName) ?? [];
  const args = meta<Record<string, { index: number; data?: unknown; pipes?: Enhancer<PipeTransform>[]; factory?: ParamSource['factory'] }>>(ROUTE_ARGS_METADATA, type, methodName) ?? {};
  const passthrough = meta<boolean>(RESPONSE_PASSTHROUGH_METADATA, type, methodName) === true;
  let answersItself = false;
  const params: ParamSource[] = Object.entries(args).map(([key, arg]) => {
    const paramPipes = (arg.pipes ?? []).map((p) => (typeof p === 'function' ? deps.resolve(p as Type<PipeTransform>) : p));
    if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) return { index: arg.index, type: 'custom', data: arg.data, pipes: paramPipes, factory: arg.factory };
    const kind = Number(key.split(':')[0]) as RouteParamtypes;
    if (![RouteParamtypes.REQUEST, RouteParamtypes.RESPONSE, RouteParamtypes.BODY, RouteParamtypes.QUERY, RouteParamtypes.HEADERS, RouteParamtypes.IP].includes(kind)) {
      throw refuse(`parameter ${arg.index} (${RouteParamtypes[kind]}) is not served on the lean path`);
    }
    if (kind === RouteParamtypes.RESPONSE && !passthrough) answersItself = true;
    return { index: arg.index, type: kind, data: arg.data, pipes: paramPipes };
  });
  const status = meta<number>(HTTP_CODE_METADATA, handler) ?? (requestMethod === RequestMethod.POST ? 201 : 200);
  const headers = meta<{ name: string; value: string }[]>(HEADERS_METADATA, handler) ?? [];

  const extract = (p: ParamSource, req: Request, res: Response, ctx: LeanExecutionContext): unknown => {
    const pick = (source: Record<string, unknown> | undefined, lower = false) =>
      p.data === undefined || p.data === null ? source : source?.[lower ? String(p.data).toLowerCase() : String(p.data)];
    switch (p.type) {
      case 'custom':
        return p.factory!(p.data, ctx);
      case RouteParamtypes.REQUEST:
        return req;
      case RouteParamtypes.RESPONSE:
        return res;
      case RouteParamtypes.BODY:
        return pick(req.body as Record<string, unknown> | undefined);
      case RouteParamtypes.QUERY:
        return pick(req.query as Record<string, unknown>);
      case RouteParamtypes.HEADERS:
        return pick(req.headers as Record<string, unknown>, true);
      case RouteParamtypes.IP:
        return req.ip;
      default:
        return undefined;
    }
  };

  // Without a pipe to run, the arguments are read as they are: no promise per parameter.
  const piped = params.some((p) => PIPEABLE.has(p.type) && pipes.length + p.pipes.length > 0);
  const argumentsFor = async (req: Request, res: Response, ctx: LeanExecutionContext): Promise<unknown[]> => {
    const values: unknown[] = [];
    if (!piped) {
      for (const p of params) values[p.index] = extract(p, req, res, ctx);
      return values;
    }
    await Promise.all(
      params.map(async (p) => {
        let value = extract(p, req, res, ctx);
        if (PIPEABLE.has(p.type)) {
          const metadata: ArgumentMetadata = { type: PIPE_TYPE[p.type]!, metatype: paramtypes[p.index] as Type<unknown> | undefined, data: p.data as string | undefined };
          for (const pipe of [...pipes, ...p.pipes]) value = await pipe.transform(value, metadata);
        }
        values[p.index] = value;
      }),
    );
    return values;
  };

  const answerError = (err: unknown, list: ExceptionFilter[], ctx: LeanExecutionContext) => (pickFilter(list, err) ?? deps.fallbackFilter).catch(err, ctx);

  const handle = async (req: FastRequest, res: Response): Promise<void> => {
    const ctx = new LeanExecutionContext(req, res, type, handler);
    try {
      await runMiddlewareChain(deps.prelude, req, res);
    } catch (err) {
      answerError(asNestException(err), preludeFilters, ctx);
      return;
    }
    try {
      if (!(await activates(guards, ctx))) throw new ForbiddenException('Forbidden resource');
      res.status(status);
      for (const h of headers) res.setHeader(h.name, h.value);
      const result = await intercept(interceptors, ctx, async () => handler.apply(controller, await argumentsFor(req, res, ctx)));
      if (!answersItself) deps.adapter.reply(res, result, status);
    } catch (err) {
      answerError(err, filters, ctx);
    }
  };

  return { method, path, accepts, handle };
}
