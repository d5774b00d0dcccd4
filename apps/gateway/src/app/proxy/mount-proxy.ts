import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { METRICS_REGISTRY, requestIdFor } from '@platform/observability';
import { Counter, Registry } from 'prom-client';
import { GatewayEnv } from '../../config/env';
import { EdgePolicy, parseCorsOrigins } from '../edge/edge-policy';
import { ConnectionGuard } from './connection-guard';
import { BodyStalledError, ClientBody } from './client-body';
import { expectsContinue } from './forward-headers';
import { sendProblem, writeRawProblem } from './problem';
import { ProxyService } from './proxy.service';
import { framingRefusal, toOriginForm } from './request-framing';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** How often Node checks its header and request timeouts (its default, 30 s, would blur them). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/**
 * The whole-request ceiling (Node's requestTimeout): generous enough for a 64 MiB ingest batch
 * over a slow link; a body that stalls is cut far sooner by GATEWAY_CLIENT_BODY_TIMEOUT_MS.
 */
const REQUEST_TIMEOUT_MS = 10 * 60_000;

/**
 * Pipelined requests that may wait on one connection behind the one being answered (one more cuts
 * the connection). Browsers and HTTP clients do not pipeline; a client that sends this many
 * requests without reading an answer is not waiting for them.
 */
export const MAX_PIPELINED_WAITING = 16;

/** The methods a 405 names (RFC 9110 §15.5.6: it must list them): what the services behind serve. */
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

/**
 * The most of a refused body the gateway reads (and drops) on its own routes so that the client
 * sees the refusal rather than a reset connection; a larger one is refused without being read.
 */
const OWN_ROUTE_DISCARD_BYTES = 64 * 1024;

interface BodyAllowance {
  idleMs: number;
  deadlineMs: number;
  minRate: number;
}

/**
 * The gateway's own routes (health, metrics, docs, the 404 of an unknown path) are all GETs and
 * take no body: one is refused 413 and the connection closed, never handed to the application's
 * body parsers, which would buffer it with no time limit (thousands of stalled JSON bodies were
 * hundreds of MB). A small body is first read and dropped under the proxied bodies' rules (no
 * pause over the body timeout, the whole within its allowance; 408 otherwise), so the client sees
 * the answer; a larger or expected (100-continue) one is refused without being read.
 */
async function refuseOwnRouteBody(req: IncomingMessage, res: ServerResponse, allowance: BodyAllowance): Promise<void> {
  const requestId = requestIdFor(req, res);
  const refuse = () =>
    sendProblem(res, 413, 'payload_too_large', "the gateway's own routes (health, metrics, docs) take no request body", requestId, { connection: 'close' });
  const declared = Number(req.headers['content-length'] ?? 0);
  if (expectsContinue(req) || declared > OWN_ROUTE_DISCARD_BYTES) return refuse();
  const body = new ClientBody(req, { limit: OWN_ROUTE_DISCARD_BYTES, ...allowance });
  try {
    for await (const chunk of body.chunks()) void chunk;
    refuse();
  } catch (e) {
    if (e instanceof BodyStalledError) sendProblem(res, 408, 'request_timeout', e.message, requestId, { connection: 'close' });
    else if (!req.destroyed) refuse();
    else res.destroy();
  }
}

/**
 * Whether a request asks to switch protocols (`Upgrade` with `Connection: upgrade`: a WebSocket
 * handshake, curl's h2c). The gateway opens no tunnels and switches nothing, so it answers such
 * a request as plain HTTP (RFC 9110 §7.8: a server may ignore Upgrade; the field is hop-by-hop and
 * never forwarded). But Node's parser stops reading the connection at such a request when nobody
 * takes the upgrade: whatever the client pipelined behind it in the same packet is lost, and would
 * wait for an answer for ever. So the answer closes the connection (`Connection: close`), telling
 * the client to send those again.
 */
function asksUpgrade(req: IncomingMessage): boolean {
  if (req.headers.upgrade === undefined) return false;
  const connection = req.headers.connection;
  return typeof connection === 'string' && /(?:^|,)\s*upgrade\s*(?:,|$)/i.test(connection);
}

/** Whether a request declares a body: a length above zero, or a transfer coding. */
function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Puts the edge policy (security headers, CORS) and the proxy in front of Express itself: a routed request goes straight from the HTTP server
 * to the upstream (no Express or Nest work per request, bodies stream untouched); only unmatched
 * paths (the gateway's own health, metrics, 404) reach the Nest application.
 */
export function mountProxy(app: INestApplication): void {
  const proxy = app.get(ProxyService);
  const config: ConfigService<GatewayEnv, true> = app.get(ConfigService);
  const edge = new EdgePolicy({ corsOrigins: parseCorsOrigins(config.get('GATEWAY_CORS_ORIGINS', { infer: true })), hsts: config.get('GATEWAY_HSTS', { infer: true }) === true });
  const server = app.getHttpServer() as Server;
  const appListeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');

  const allowance: BodyAllowance = {
    idleMs: config.get('GATEWAY_CLIENT_BODY_TIMEOUT_MS', { infer: true }),
    deadlineMs: config.get('GATEWAY_CLIENT_BODY_DEADLINE_MS', { infer: true }),
    minRate: config.get('GATEWAY_CLIENT_BODY_MIN_RATE', { infer: true }),
  };
  const closed = new Counter({
    name: 'gateway_client_connections_closed_total',
    help: 'Client connections the gateway cut: send_timeout (the client took none of an answer in time), pipeline_overflow (too many pipelined requests)',
    labelNames: ['reason'],
    registers: [app.get<Registry>(METRICS_REGISTRY)],
  });
  // One request at a time per connection, and no answer stuck on a client that does not read.
  const guard = new ConnectionGuard({
    sendTimeoutMs: config.get('GATEWAY_CLIENT_SEND_TIMEOUT_MS', { infer: true }),
    maxWaiting: MAX_PIPELINED_WAITING,
    onClose: (reason) => closed.inc({ reason }),
  });
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    if (asksUpgrade(req)) res.shouldKeepAlive = false;
    const refusal = framingRefusal(req) ?? toOriginForm(req);
    if (refusal) {
      // The request is not one the gateway can route or forward safely: answered here, and the
      // connection closed (what follows on it cannot be trusted to be framed as its sender meant).
      edge.applyDefaults(req, res);
      sendProblem(res, refusal.status, refusal.code, refusal.detail, requestIdFor(req, res), { connection: 'close' });
      return;
    }
    if (edge.preflight(req, res)) return;
    edge.applyDefaults(req, res);
    if (req.method === 'TRACE') {
      // RFC 9110 §9.3.8: TRACE echoes the request back, credentials included (cross-site tracing); no service needs it.
      sendProblem(res, 405, 'method_not_allowed', 'TRACE is not allowed', requestIdFor(req, res), { allow: ALLOWED_METHODS, ...(declaresBody(req) ? { connection: 'close' } : {}) });
      return;
    }
    if (proxy.handle(req, res)) return;
    if (declaresBody(req)) return void refuseOwnRouteBody(req, res, allowance);
    for (const listener of appListeners) listener(req, res);
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => guard.admit(req, res, () => serve(req, res));
  server.on('request', handle);
  // With this listener Node no longer answers 100 Continue by itself: the proxy sends it once the
  // upstream is ready for the body, and answers a final status instead when it is not.
  server.on('checkContinue', handle);
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    guard.admit(req, res, () => {
      edge.applyDefaults(req, res);
      sendProblem(res, 417, 'expectation_failed', 'the only expectation supported is 100-continue', requestIdFor(req, res));
    }),
  );

  hardenServer(server, config.get('GATEWAY_CLIENT_HEADERS_TIMEOUT_MS', { infer: true }), guard, edge.securityHeaders());
}

/**
 * Client errors Node detects before any handler runs (unparsable request, headers too large or too
 * slow) answer in the gateway's JSON error shape, then the connection closes.
 */
function hardenServer(server: Server, headersTimeoutMs: number, guard: ConnectionGuard, securityHeaders: Record<string, string>): void {
  server.headersTimeout = headersTimeoutMs;
  // Node answers an HTTP/1.1 request without Host itself (a bare 400, empty chunked body, no
  // security headers) before any handler runs; framingRefusal answers it in the gateway's shape.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.requestTimeout = Math.max(REQUEST_TIMEOUT_MS, headersTimeoutMs);
  // createServer's connectionsCheckingInterval option, read by Node when the server starts
  // listening (after this configuration); Nest creates the server without options.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(TIMEOUT_CHECK_INTERVAL_MS, headersTimeoutMs);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    // An answer still being given on the connection (a bad request pipelined behind a good one)
    // comes first: the bad one gets no answer of its own, and the connection closes after it.
    const current = guard.current(socket);
    if (current !== undefined && !current.writableFinished) {
      // A timeout is enforced though: nothing more is given to the connection.
      if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.destroy();
      else if (!current.headersSent) current.shouldKeepAlive = false;
      else current.once('finish', () => socket.destroySoon());
      return;
    }
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') writeRawProblem(socket, 408, 'request_timeout', 'the request was not received in time', securityHeaders);
    else if (err.code === 'HPE_HEADER_OVERFLOW') writeRawProblem(socket, 431, 'request_header_fields_too_large', 'the request header section is too large', securityHeaders);
    else if (err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') writeRawProblem(socket, 413, 'payload_too_large', 'the chunk extensions are too large', securityHeaders);
    else writeRawProblem(socket, 400, 'bad_request', 'the request is not valid HTTP/1.1', securityHeaders);
    socket.destroySoon();
  });
  // CONNECT asks for a tunnel, which a reverse proxy never opens. Node hands such a request to
  // 'connect' listeners with the bare socket and, without one, drops the connection unanswered.
  // RFC 9110 §9.1: a method the server does not implement SHOULD be answered 501.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    // Node took its own listeners off the socket when it handed it over, its error handler too.
    socket.on('error', () => socket.destroy());
    writeRawProblem(socket, 501, 'not_implemented', 'CONNECT is not supported: the gateway opens no tunnels', securityHeaders);
    socket.destroySoon();
  });
}
