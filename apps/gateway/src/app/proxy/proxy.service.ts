import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import { errors, Pool } from 'undici';
import { loggedUrl, requestIdFor } from '@platform/observability';
import { BodyStalledError, BodyTooLargeError, ClientAbortedError, ClientBody, drainBody } from './client-body';
import { ClientUploads, TooManyUploadsError } from './client-uploads';
import { clientAddress, clientResponseHeaders, expectsContinue, TrustedProxies, UPSTREAM_MAX_HEADER_BYTES, upstreamHeaderBytes, unsendableReason, upstreamRequestHeaders } from './forward-headers';
import { sendProblem } from './problem';
import { ReadAheadBudget, ReadAheadBudgetSpentError } from './read-ahead-budget';

/** Bodies declared this small are never refused for the read-ahead budget (see forward). */
export const SMALL_BODY_BYTES = 2048;
import { matchRoute, matchUpstreamHealth, Route } from './route-table';
import { SlotWaitAbortedError, SlotWaitTimeoutError, UpstreamSlots } from './upstream-slots';

export interface ProxyOptions {
  routes: Route[];
  /** Time an upstream has to send response headers (504 after). */
  timeoutMs: number;
  /** Pooled connections per upstream, and so requests in flight to it. */
  connections: number;
  /** Longest wait for a free upstream connection (503 after). */
  queueTimeoutMs: number;
  /** Longest pause in a client's body while the gateway waits for it (408 after). */
  clientBodyTimeoutMs: number;
  /**
   * A body's whole allowance (408 after): the time spent waiting for it may not exceed this plus
   * what its bytes earn at `clientBodyMinRate`.
   */
  clientBodyDeadlineMs: number;
  /** Bytes per second a body must average, past `clientBodyDeadlineMs`. */
  clientBodyMinRate: number;
  /** A body up to this size is read whole before it takes an upstream connection; a larger one its first this many bytes. */
  bodyBufferBytes: number;
  /** Bytes of request bodies all requests together may hold read ahead (a request whose body does not fit is answered 503 at once). */
  readAheadBudgetBytes: number;
  /** Requests from one client address that may hold connections to one upstream while still sending their body (429 past). */
  uploadsPerClient: number;
  /** The proxies in front of the gateway whose X-Forwarded-For and X-Forwarded-Proto are believed. */
  trustedProxies: TrustedProxies;
  registry: Registry;
}

/**
 * After an early answer, what the gateway still reads and drops of a body so the client sees the
 * answer rather than a reset; a larger remainder closes the connection instead.
 */
const DISCARD_MAX_BYTES = 128 * 1024 * 1024;

type Outcome = '1xx' | '2xx' | '3xx' | '4xx' | '5xx' | 'error' | 'timeout' | 'queue_timeout' | 'busy' | 'client_error' | 'client_aborted' | 'refused';

/** The HTTP client refused the request before sending it (see unsendableReason). */
function refusedAtDispatch(e: unknown): boolean {
  return e instanceof errors.InvalidArgumentError || e instanceof errors.NotSupportedError;
}

/**
 * An error as the gateway's logs name it: its code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT, …) or
 * class name, never its message, which for a connection error carries the upstream's address (the
 * logs name upstreams as /metrics does).
 */
function errorLabel(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return e instanceof Error ? e.name : typeof e;
}

/** The declared body length: a number, undefined when absent, NaN when unusable. */
function declaredLength(req: IncomingMessage): number | undefined {
  const raw = req.headers['content-length'];
  return raw === undefined ? undefined : Number(raw);
}

/** The body's chunks; `done` (when given) is called once the body is complete or abandoned. */
async function* untilEnd(chunks: AsyncGenerator<Buffer>, done: (() => void) | undefined): AsyncGenerator<Buffer> {
  try {
    yield* chunks;
  } finally {
    done?.();
  }
}

/**
 * Streams requests to the upstream chosen by path prefix over pooled keep-alive connections.
 * Method, end-to-end headers, body and response are passed through as streams, so large uploads
 * and server-sent events flow without buffering beyond a body's first bytes (read ahead before a
 * connection slot is taken: small bodies whole). Every way a request can end (answered, refused,
 * client gone, upstream down or slow, client too slow) gives its connection slot back, so no
 * client can wedge it.
 */
@Injectable()
export class ProxyService implements OnApplicationShutdown {
  private readonly logger = new Logger('Proxy');
  private readonly pools = new Map<string, Pool>();
  private readonly slots = new Map<string, UpstreamSlots>();
  private readonly uploads = new Map<string, ClientUploads>();
  private readonly uploadSlots = new Map<string, UpstreamSlots>();
  private readonly outcomes: Counter<'upstream' | 'outcome'>;
  private readonly readAhead: ReadAheadBudget;
  /** Each upstream's authority, as the HTTP client sends it in Host. */
  private readonly authorities = new Map<string, string>();

  constructor(private readonly options: ProxyOptions) {
    this.readAhead = new ReadAheadBudget(options.readAheadBudgetBytes);
    for (const route of options.routes) {
      if (this.pools.has(route.upstream)) continue;
      this.pools.set(route.upstream, this.newPool(route.upstream));
      this.authorities.set(route.upstream, new URL(route.upstream).host);
      this.slots.set(route.upstream, new UpstreamSlots(options.connections, options.queueTimeoutMs));
      this.uploads.set(route.upstream, new ClientUploads(options.uploadsPerClient));
      // Half the pool at most for requests still streaming their body: the other half serves requests whose body is in.
      this.uploadSlots.set(route.upstream, new UpstreamSlots(Math.max(1, Math.floor(options.connections / 2)), options.queueTimeoutMs));
    }
    // Labelled by the upstream's name (iam, kb, …), never its URL: /metrics is served to anyone who
    // reaches the gateway, and the addresses behind it are none of their business.
    this.outcomes = new Counter({
      name: 'gateway_upstream_requests_total',
      help: 'Proxied requests by upstream name and outcome (status class, error, timeout, queue_timeout, busy, client_error, client_aborted, refused)',
      labelNames: ['upstream', 'outcome'],
      registers: [options.registry],
    });
    const slots = this.slots;
    const names = this.upstreams;
    new Gauge({
      name: 'gateway_upstream_slots',
      help: 'Connection slots per upstream name: in_use (requests holding one), waiting (requests queued for one); names sharing an address share its slots',
      labelNames: ['upstream', 'state'],
      registers: [options.registry],
      collect() {
        for (const { name, url } of names) {
          const { inFlight, waiting } = slots.get(url)!.stats;
          this.set({ upstream: name, state: 'in_use' }, inFlight);
          this.set({ upstream: name, state: 'waiting' }, waiting);
        }
      },
    });
    const readAhead = this.readAhead;
    new Gauge({
      name: 'gateway_read_ahead_bytes',
      help: 'Bytes of request bodies reserved for reading ahead, of GATEWAY_READ_AHEAD_BUDGET_BYTES',
      registers: [options.registry],
      collect() {
        this.set(readAhead.usedBytes);
      },
    });
  }

  private newPool(upstream: string): Pool {
    return new Pool(upstream, {
      // One more than the slots admit: the readiness probe never queues behind proxied requests.
      connections: this.options.connections + 1,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      headersTimeout: this.options.timeoutMs,
      // No limit on pauses in an answer's body (an event stream may be quiet for long). An answer
      // paused because its client does not read is cut by the connection's send timeout
      // (GATEWAY_CLIENT_SEND_TIMEOUT_MS, ConnectionGuard), which cancels the upstream request.
      bodyTimeout: 0,
      connectTimeout: Math.min(this.options.timeoutMs, 5000),
    });
  }

  /** One entry per upstream name (two names may share a URL, and each is reported by its own name). */
  get upstreams(): Array<{ name: string; url: string }> {
    const seen = new Map<string, string>();
    for (const r of this.options.routes) if (!seen.has(r.name)) seen.set(r.name, r.upstream);
    return [...seen].map(([name, url]) => ({ name, url }));
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

  private count(route: Route, outcome: Outcome): void {
    this.outcomes.inc({ upstream: route.name, outcome });
  }

  private async forward(route: Route, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const requestId = requestIdFor(req, res);
    const headers = upstreamRequestHeaders(req, requestId, this.options.trustedProxies);
    const refusal = unsendableReason(path, headers);
    if (refusal) {
      this.count(route, 'client_error');
      return sendProblem(res, 400, 'bad_request', refusal, requestId);
    }
    if (upstreamHeaderBytes(req.method ?? 'GET', path, headers, this.authorities.get(route.upstream)!) >= UPSTREAM_MAX_HEADER_BYTES) {
      // What the gateway adds would push the header section past what the service accepts: refused here, in the gateway's shape.
      this.count(route, 'client_error');
      return sendProblem(res, 431, 'request_header_fields_too_large', 'the request header section is too large to forward', requestId);
    }
    const declared = declaredLength(req);
    if (declared !== undefined && declared > route.maxBodyBytes) {
      this.count(route, 'client_error');
      const tooLarge = (headers: Record<string, string>) =>
        sendProblem(res, 413, 'payload_too_large', `the request body is larger than ${route.maxBodyBytes} bytes`, requestId, headers);
      // A client waiting for 100 sends nothing more; a remainder too large to be worth reading
      // closes the connection. Any other body is read and dropped first, so the 413 is what the
      // client sees rather than a reset connection.
      if (expectsContinue(req)) return tooLarge({});
      if (declared > DISCARD_MAX_BYTES) return tooLarge({ connection: 'close' });
      if (await drainBody(req, this.options.clientBodyTimeoutMs)) tooLarge({});
      return;
    }
    const hasBody = (declared !== undefined && declared > 0) || req.headers['transfer-encoding'] !== undefined;

    // The client going away (mid-upload, mid-answer or while queued) cancels the upstream side. The
    // connection's own close counts as much as the answer's: the two are the same event for the
    // answer Node is giving, but only the connection's is sure to come.
    const cancel = new AbortController();
    const socket = req.socket;
    const onClose = () => {
      // Unfinished and not destroyed by an upstream failure (which sets `errored`): the client left.
      if (!res.writableFinished && !res.errored) cancel.abort();
    };
    res.once('close', onClose);
    socket.once('close', onClose);
    if (socket.destroyed) onClose();

    let release: (() => void) | undefined;
    let uploading: (() => void) | undefined;
    let readingAhead: (() => void) | undefined;
    const body = hasBody
      ? new ClientBody(req, {
          limit: route.maxBodyBytes,
          idleMs: this.options.clientBodyTimeoutMs,
          deadlineMs: this.options.clientBodyDeadlineMs,
          minRate: this.options.clientBodyMinRate,
          // The 100 goes out once the gateway asks for the body, which it reads ahead before taking a connection slot.
          onStart: expectsContinue(req) ? () => res.writeContinue() : undefined,
          onReadAheadSent: () => readingAhead?.(),
        })
      : undefined;
    try {
      // What is read ahead counts against one budget for all requests: a body that does not fit is
      // answered 503 at once (and read and dropped), a client expecting 100 Continue getting none.
      // A declared body of at most SMALL_BODY_BYTES is not counted: it costs nothing beyond the
      // bytes Node reads of every connection anyway, and a client holding the budget with large
      // bodies trickled in must not turn away sign-ins and token requests.
      if (body && !(declared !== undefined && declared <= SMALL_BODY_BYTES)) {
        readingAhead = this.readAhead.reserve(Math.min(declared ?? Infinity, this.options.bodyBufferBytes + 1));
      }
      // A body is read ahead before the request takes one of the upstream's connection slots: whole when it is no
      // larger than the buffer, else its first bufferBytes. A client that sends slowly or not at all (a byte every
      // few seconds, or a declared body that never starts) then holds no slot while it does, only its own
      // connection, and runs out of its allowance (408) without having cost anyone else anything; nor can an
      // upstream that closes its idle keep-alive connection meanwhile turn the client's stall into a 502.
      const whole = body ? await body.prefetch(this.options.bodyBufferBytes + 1) : true;
      // The rest of a larger body streams to the upstream as it arrives, holding a slot meanwhile: bounded in time by
      // the body's allowance, and in number per client address, so one client cannot take the pool with slow uploads.
      if (!whole) uploading = await this.holdUpload(route.upstream, clientAddress(req, this.options.trustedProxies), cancel.signal);
      release = await this.slots.get(route.upstream)!.acquire(cancel.signal);
      // undici writes the answer's body straight into the client's response (with backpressure,
      // ending it when the upstream ends); no intermediate stream and no pipeline per request.
      await this.pools.get(route.upstream)!.stream(
        {
          path,
          method: req.method as 'GET',
          headers,
          // An async iterable body is documented (Dispatcher.md) though missing from undici's typings.
          body: body && (untilEnd(body.chunks(), uploading) as unknown as Readable),
          signal: cancel.signal,
        },
        ({ statusCode, headers: upstreamHeaders }) => {
          const out = clientResponseHeaders(upstreamHeaders);
          out['x-request-id'] = requestId;
          res.writeHead(statusCode, out);
          this.count(route, `${Math.floor(statusCode / 100)}xx` as Outcome);
          return res;
        },
      );
    } catch (e) {
      this.fail(route, req, res, path, requestId, body, e, cancel.signal.aborted);
    } finally {
      readingAhead?.();
      uploading?.();
      release?.();
      res.off('close', onClose);
      socket.off('close', onClose);
    }
  }

  private fail(route: Route, req: IncomingMessage, res: ServerResponse, path: string, requestId: string, body: ClientBody | undefined, error: unknown, clientGone: boolean): void {
    // After the headers, undici destroys the client's response with the failure's cause and
    // rejects with a generic premature close: the cause is the response's `errored`.
    const e = res.headersSent ? (res.errored ?? error) : error;
    if (clientGone || e instanceof ClientAbortedError || e instanceof SlotWaitAbortedError) {
      this.count(route, 'client_aborted');
      res.destroy();
      return;
    }
    if (res.headersSent) {
      // A cut connection tells the client the answer is incomplete: the upstream failed
      // mid-answer, or the client's own body did (stalled or too large) after the upstream answered.
      this.count(route, e instanceof BodyStalledError || e instanceof BodyTooLargeError ? 'client_error' : 'error');
      res.destroy();
      return;
    }
    if (e instanceof BodyStalledError) {
      this.count(route, 'client_error');
      sendProblem(res, 408, 'request_timeout', e.message, requestId, { connection: 'close' });
      return;
    }
    const [status, code, detail, headers] = this.answerFor(route, req, path, e);
    sendProblem(res, status, code, detail, requestId, headers);
    // The client may still be sending: it gets the answer, not a reset, and the connection stays usable.
    body?.discardRest(DISCARD_MAX_BYTES);
  }

  private answerFor(route: Route, req: IncomingMessage, path: string, e: unknown): [number, string, string, Record<string, string>] {
    if (e instanceof BodyTooLargeError) {
      this.count(route, 'client_error');
      return [413, 'payload_too_large', e.message, {}];
    }
    if (e instanceof TooManyUploadsError) {
      this.count(route, 'client_error');
      return [429, 'too_many_requests', e.message, { 'retry-after': '1' }];
    }
    if (e instanceof ReadAheadBudgetSpentError) {
      this.count(route, 'busy');
      return [503, 'gateway_busy', e.message, { 'retry-after': '1' }];
    }
    if (e instanceof SlotWaitTimeoutError) {
      this.count(route, 'queue_timeout');
      this.logger.warn(`upstream ${route.name} busy: ${req.method} ${loggedUrl(path)} waited ${e.waitedMs} ms for a connection`);
      return [503, 'upstream_busy', e.message, { 'retry-after': '1' }];
    }
    if (refusedAtDispatch(e)) {
      // unsendableReason should have caught it; the pool may now hold a connection that never
      // drains, so it is replaced rather than left to shrink.
      this.count(route, 'refused');
      this.logger.error(`upstream ${route.name}: request refused by the HTTP client (${(e as Error).message}); pool replaced`);
      this.replacePool(route.upstream);
      return [400, 'bad_request', 'the request cannot be forwarded', {}];
    }
    const timeout = e instanceof errors.HeadersTimeoutError || e instanceof errors.ConnectTimeoutError;
    this.count(route, timeout ? 'timeout' : 'error');
    this.logger.warn(`upstream ${route.name} failed for ${req.method} ${loggedUrl(path)}: ${errorLabel(e)}`);
    if (timeout) return [504, 'upstream_timeout', `the upstream did not answer within ${this.options.timeoutMs} ms`, {}];
    return [502, 'upstream_unavailable', 'the upstream service is unavailable', {}];
  }

  /**
   * A place for a request whose body will stream to the upstream: one of the upload slots (waited
   * for like a connection, 503 when none frees up in time), then one of its client's (429 when none
   * is left). In that order, so a request still waiting counts against no one: only uploads that
   * hold a slot use their client's places. Released once the body has streamed, or the request ends.
   */
  private async holdUpload(upstream: string, address: string, signal: AbortSignal): Promise<() => void> {
    const slot = await this.uploadSlots.get(upstream)!.acquire(signal);
    try {
      const clientPlace = this.uploads.get(upstream)!.hold(address);
      return () => {
        slot();
        clientPlace();
      };
    } catch (e) {
      slot();
      throw e;
    }
  }

  private replacePool(upstream: string): void {
    const old = this.pools.get(upstream);
    this.pools.set(upstream, this.newPool(upstream));
    // close() lets requests in flight on the old pool finish.
    void old?.close().catch(() => undefined);
  }

  /**
   * Liveness of one upstream, for the gateway's readiness report. A failure is reported by its code
   * (ECONNREFUSED, UND_ERR_CONNECT_TIMEOUT, …), not its message: the report is public, and the
   * message names the upstream's address.
   */
  async probe(upstream: string, timeoutMs = 1000): Promise<{ status: 'up' | 'down'; latency_ms?: number; error?: string }> {
    const started = performance.now();
    try {
      const r = await this.pools.get(upstream)!.request({
        path: '/health/live',
        method: 'GET',
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        // Bounds the whole probe, a wait for a connection included.
        signal: AbortSignal.timeout(timeoutMs),
      });
      await r.body.dump();
      if (r.statusCode !== 200) return { status: 'down', error: `status ${r.statusCode}` };
      return { status: 'up', latency_ms: Math.round((performance.now() - started) * 10) / 10 };
    } catch (e) {
      // A timeout is a DOMException, whose code is a number: its name (TimeoutError) says more.
      const code = (e as { code?: unknown }).code;
      return { status: 'down', error: typeof code === 'string' ? code : (e as Error).name };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.pools.values()].map((p) => p.close()));
  }
}
