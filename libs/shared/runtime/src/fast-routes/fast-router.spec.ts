import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import express from 'express';
import { httpRequestDuration, pinoHttpOptions } from '@platform/observability';
import pinoHttp from 'pino-http';
import { Registry } from 'prom-client';
import { FastRoute, mountFastRoutes } from './fast-router';
import { runMiddleware } from './nest-bridge';

function captureLog() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(chunk.toString());
      cb();
    },
  });
  return { logger: pinoHttp(pinoHttpOptions('fast-test', 'info', false), stream).logger, lines: () => chunks.join('').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

describe('fast routes on the raw HTTP server', () => {
  let server: Server;
  let url: string;
  let draining = false;
  const log = captureLog();
  const registry = new Registry();
  const app = express();
  app.disable('x-powered-by');
  // The app's own parser: the lean route runs the very same middleware.
  const parseJson = express.json({ limit: 100 });
  app.use(parseJson);
  app.use((_req, res) => {
    res.status(404).json({ via: 'app' });
  });

  const echo: FastRoute = {
    method: 'POST',
    path: '/echo',
    accepts: (req) => req.headers['content-type'] === 'application/json',
    handle: async (req, res) => {
      try {
        await runMiddleware(parseJson, req, res);
        res.status(201).json({ got: req.body, ip: req.ip, route: `${req.baseUrl}${(req.route as { path: string }).path}` });
      } catch (e) {
        res.status((e as { status?: number }).status ?? 500).json({ failed: true });
      }
    },
  };
  const broken: FastRoute = {
    method: 'GET',
    path: '/broken',
    handle: async () => {
      throw new Error('handler bug');
    },
  };

  beforeAll(async () => {
    server = createServer(app);
    mountFastRoutes(server, [echo], { express: app, logger: () => log.logger, duration: httpRequestDuration(registry), isDraining: () => draining });
    mountFastRoutes(server, [broken], { express: app, logger: () => log.logger });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  it('answers a matching request with Express response helpers and a request id', async () => {
    const r = await post('/echo', '{"a":1}', { 'x-request-id': 'fast-1' });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-request-id')).toBe('fast-1');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // The route as Express's router would have set it (request logs read it).
    expect(await r.json()).toEqual({ got: { a: 1 }, ip: '127.0.0.1', route: '/echo' });
    const minted = await post('/echo', '{}', { 'x-request-id': 'not ok' });
    expect(minted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves everything else to the app: other paths, query strings, declined requests', async () => {
    for (const r of [await post('/other', '{}'), await post('/echo?x=1', '{}'), await post('/echo', 'a=1', { 'content-type': 'text/plain' })]) {
      expect(r.status).toBe(404);
      expect(await r.json()).toEqual({ via: 'app' });
    }
  });

  it("uses the app's own body parser, its size limit included", async () => {
    expect((await post('/echo', JSON.stringify({ long: 'x'.repeat(200) }))).status).toBe(413);
  });

  it('records the duration histogram under the route template', async () => {
    await post('/echo', '{"b":2}');
    const text = await registry.metrics();
    expect(text).toMatch(/http_server_request_duration_seconds_count\{method="POST",route="\/echo",status="201"\} \d+/);
    expect(text).toMatch(/http_server_request_duration_seconds_count\{method="POST",route="\/echo",status="413"\} 1/);
  });

  it('writes one access line per request with the request id and the response status', async () => {
    await post('/echo', '{"c":3}', { 'x-request-id': 'fast-log' });
    await new Promise((r) => setImmediate(r));
    const line = log.lines().find((l) => l['req']?.['id'] === 'fast-log');
    expect(line).toMatchObject({ service: 'fast-test', msg: 'request completed', req: { method: 'POST', url: '/echo' }, res: { statusCode: 201 } });
    expect(typeof line['responseTime']).toBe('number');
  });

  it('asks keep-alive clients to reconnect elsewhere while the app drains', async () => {
    draining = true;
    try {
      const r = await post('/echo', '{}');
      expect(r.status).toBe(201);
      expect(r.headers.get('connection')).toBe('close');
    } finally {
      draining = false;
    }
    expect((await post('/echo', '{}')).headers.get('connection')).toBe('keep-alive');
  });

  it('answers 500 when a handler fails without answering', async () => {
    const r = await fetch(`${url}/broken`);
    expect(r.status).toBe(500);
    await new Promise((res) => setImmediate(res));
    expect(log.lines().some((l) => l['msg'] === 'fast route failed' && l['err']?.['message'] === 'handler bug')).toBe(true);
  });
});
