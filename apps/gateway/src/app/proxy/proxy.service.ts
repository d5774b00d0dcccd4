import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Counter, Registry } from 'prom-client';
import { errors, Pool } from 'undici';
import { matchRoute, matchUpstreamHealth, Route } from './route-table';
import { requestIdFor } from '@platform/observability';

/** RFC 9110 §7.6.1 connection-specific fields: never forwarded in either direction. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
]);

function forwardableHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = typeof headers.connection === 'string' ? headers.connection.toLowerCase().split(/\s*,\s*/) : [];
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(key) || named.includes(key)) continue;
    out[key] = value;
  }
  return out;
}

export interface ProxyOptions {
  routes: Route[];
  timeoutMs: number;
  connections: number;
  registry: Registry;
}

function problem(res: ServerResponse, status: number, code: string, detail: string, requestId: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ type: `https://errors.platform.local/${code}`, title: code.replace(/_/g, ' '), status, detail, code, request_id: requestId });
  res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId });
  res.end(body);
}

/**
 * Streams requests to the upstream chosen by path prefix over pooled keep-alive connections.
 * Method, headers (minus hop-by-hop), body and response are passed through as streams, so
 * large uploads and server-sent events flow without buffering.
 */
@Injectable()
export class ProxyService implements OnApplicationShutdown {
  private readonly logger = new Logger('Proxy');
  private readonly pools = new Map<string, Pool>();
  private readonly outcomes: Counter<'upstream' | 'outcome'>;

  constructor(private readonly options: ProxyOptions) {
    for (const route of options.routes) {
      if (!this.pools.has(route.upstream)) {
        this.pools.set(
          route.upstream,
          new Pool(route.upstream, {
            connections: options.connections,
            pipelining: 1,
            keepAliveTimeout: 30_000,
            headersTimeout: options.timeoutMs,
            bodyTimeout: 0,
            connectTimeout: Math.min(options.timeoutMs, 5000),
          }),
        );
      }
    }
    this.outcomes = new Counter({
      name: 'gateway_upstream_requests_total',
      help: 'Proxied requests by upstream and outcome (status class or error)',
      labelNames: ['upstream', 'outcome'],
      registers: [options.registry],
    });
  }

  /** One entry per distinct upstream, named as in the route table. */
  get upstreams(): Array<{ name: string; url: string }> {
    const seen = new Map<string, string>();
    for (const r of this.options.routes) if (!seen.has(r.upstream)) seen.set(r.upstream, r.name);
    return [...seen].map(([url, name]) => ({ name, url }));
  }

  /** Returns false when no route matches (Nest then handles the request: health, metrics, 404). */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '/';
    const route = matchRoute(this.options.routes, url);
    if (route) {
      void this.forward(route, req, res, url);
      return true;
    }
    const health = req.method === 'GET' ? matchUpstreamHealth(this.options.routes, url) : undefined;
    if (health) {
      void this.forward(health.route, req, res, health.path);
      return true;
    }
    return false;
  }

  private async forward(route: Route, req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
    const requestId = requestIdFor(req, res);
    const headers = forwardableHeaders(req.headers);
    headers['x-request-id'] = requestId;
    const remote = req.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for']}, ${remote}` : remote;
    headers['x-forwarded-host'] = req.headers.host ?? '';
    headers['x-forwarded-proto'] = (req.headers['x-forwarded-proto'] as string) ?? 'http';
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const pool = this.pools.get(route.upstream)!;
    try {
      const upstream = await pool.request({
        path: url,
        method: req.method as 'GET',
        headers,
        body: hasBody ? req : undefined,
        signal: undefined,
      });
      const out: Record<string, string | string[]> = {};
      for (const [key, value] of Object.entries(upstream.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(key)) out[key] = value;
      }
      out['x-request-id'] = requestId;
      res.writeHead(upstream.statusCode, out);
      this.outcomes.inc({ upstream: route.upstream, outcome: `${Math.floor(upstream.statusCode / 100)}xx` });
      await pipeline(upstream.body, res);
    } catch (e) {
      const timeout = e instanceof errors.HeadersTimeoutError || e instanceof errors.ConnectTimeoutError;
      this.outcomes.inc({ upstream: route.upstream, outcome: timeout ? 'timeout' : 'error' });
      if (res.headersSent) {
        res.destroy();
        return;
      }
      this.logger.warn(`upstream ${route.upstream} failed for ${req.method} ${url}: ${(e as Error).message}`);
      if (timeout) problem(res, 504, 'upstream_timeout', `the upstream did not answer within ${this.options.timeoutMs} ms`, requestId);
      else problem(res, 502, 'upstream_unavailable', 'the upstream service is unavailable', requestId);
    }
  }

  /** Liveness of one upstream, for the gateway's readiness report. */
  async probe(upstream: string, timeoutMs = 1000): Promise<{ status: 'up' | 'down'; latency_ms?: number; error?: string }> {
    const started = performance.now();
    try {
      const r = await this.pools.get(upstream)!.request({
        path: '/health/live',
        method: 'GET',
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      await r.body.dump();
      if (r.statusCode !== 200) return { status: 'down', error: `status ${r.statusCode}` };
      return { status: 'up', latency_ms: Math.round((performance.now() - started) * 10) / 10 };
    } catch (e) {
      return { status: 'down', error: (e as Error).message };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}
