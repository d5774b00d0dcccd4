import { METHODS } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';

interface RouterLayer {
  route?: { path: unknown; methods: Record<string, boolean> };
}

/**
 * The routes every service gets from the shared platform module (probes and metrics). They are
 * operational endpoints described in the runbook, not part of a service's API document.
 */
export const PLATFORM_ROUTES = ['get /health/live', 'get /health/ready', 'get /metrics'];

/**
 * Every route (`method /path`, path parameters written `{name}`) an app has registered on its
 * Express router, read after boot, so a route added by any module, however it is imported, is
 * seen. A route registered for every method is reported with the method `all`. Wildcard paths
 * (`*path`) are left out: Nest mounts middleware applied to every route of a group (metrics, CORS
 * preflight) that way, and no operation is declared with one.
 */
export function registeredRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as { router: { stack: RouterLayer[] } };
  const methodsByPath = new Map<string, Set<string>>();
  for (const layer of express.router.stack) {
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const path of paths) {
      if (String(path).includes('*')) continue;
      const openApiPath = String(path).replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
      const methods = methodsByPath.get(openApiPath) ?? new Set<string>();
      for (const method of Object.keys(layer.route.methods)) methods.add(method === '_all' ? 'all' : method);
      methodsByPath.set(openApiPath, methods);
    }
  }
  const routes: string[] = [];
  for (const [path, methods] of methodsByPath) {
    // @All() registers the path once per HTTP method the server knows.
    const everyMethod = methods.has('all') || METHODS.every((m) => methods.has(m.toLowerCase()));
    if (everyMethod) routes.push(`all ${path}`);
    else routes.push(...[...methods].map((m) => `${m} ${path}`));
  }
  return routes.sort();
}

interface OpenApiLike {
  servers?: ReadonlyArray<{ url?: string }>;
  paths: Record<string, object>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * Every operation of an OpenAPI document as `method /path`, with the first server's path prefixed
 * (a path item's own `servers` overrides the document's, e.g. a well-known path at the root).
 */
export function documentedRoutes(doc: OpenApiLike): string[] {
  const baseOf = (servers?: ReadonlyArray<{ url?: string }>) => (servers?.[0]?.url ?? '/').replace(/\/$/, '');
  const base = baseOf(doc.servers);
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) => {
      const own = (ops as { servers?: ReadonlyArray<{ url?: string }> }).servers;
      const prefix = own ? baseOf(own) : base;
      return Object.keys(ops).filter((m) => HTTP_METHODS.has(m)).map((m) => `${m} ${prefix}${path}`);
    })
    .sort();
}

/** A route with its parameter names dropped, so `{id}` in code matches `{review_id}` in a document. */
export const routeShape = (route: string): string => route.replace(/\{[^}]+\}/g, '{}');

/**
 * The routes an app serves that its OpenAPI document does not list (the platform routes aside).
 * A route registered for every method is covered by any operation on its path.
 */
export function undocumentedRoutes(app: INestApplication, doc: OpenApiLike): string[] {
  const documented = documentedRoutes(doc).map(routeShape);
  const documentedPaths = new Set(documented.map((r) => r.slice(r.indexOf(' ') + 1)));
  const byRoute = new Set(documented);
  return registeredRoutes(app)
    .filter((r) => !PLATFORM_ROUTES.includes(r))
    .filter((r) => (r.startsWith('all ') ? !documentedPaths.has(routeShape(r).slice(4)) : !byRoute.has(routeShape(r))));
}

/** The operations an OpenAPI document lists that the app does not serve (a stale document). */
export function unservedOperations(app: INestApplication, doc: OpenApiLike): string[] {
  const registered = registeredRoutes(app).map(routeShape);
  const exact = new Set(registered);
  const anyMethod = new Set(registered.filter((r) => r.startsWith('all ')).map((r) => r.slice(4)));
  return documentedRoutes(doc)
    .map(routeShape)
    .filter((r) => !exact.has(r) && !anyMethod.has(r.slice(r.indexOf(' ') + 1)));
}

type OperationParameters = { parameters?: ReadonlyArray<{ name: string; in: string }> };

/**
 * Operations whose declared path parameters differ from the `{names}` their path uses, each as
 * `method /path: declared [..] used [..]`; [] when every operation agrees with its path.
 */
export function pathParameterMismatches(doc: { paths: Record<string, object> }): string[] {
  const mismatches: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const used = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    for (const [method, op] of Object.entries(item as Record<string, OperationParameters>)) {
      if (!HTTP_METHODS.has(method)) continue;
      const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort();
      if (declared.join() !== used.join()) mismatches.push(`${method} ${path}: declared [${declared}] used [${used}]`);
    }
  }
  return mismatches;
}

/** A service's committed OpenAPI document, docs/api/<service>.openapi.json (written by npm run openapi). */
export function committedOpenApiDocument(service: string): unknown {
  return JSON.parse(readFileSync(join(__dirname, '../../../../docs/api', `${service}.openapi.json`), 'utf8'));
}
