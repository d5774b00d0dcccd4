import { createServer, IncomingHttpHeaders, request, Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { RunningService, startServiceForTest } from '@platform/testing';
import { mountProxy } from '../src/app/proxy/mount-proxy';

/**
 * The gateway under abuse: storms of each kind of bad or unlucky request against real upstreams on
 * 127.0.0.1 (one healthy, one that never answers, one that is not there), with a small connection
 * pool so that a single leaked connection per request would wedge it within the first few. After
 * each storm a normal request to every healthy upstream must still be served.
 */

/** Requests the pool holds per upstream: small, so leaks show within a handful of requests. */
const CONNECTIONS = 4;
/** A hang guard only (a wedged gateway fails the test instead of stalling it), never a timing assertion. */
const HANG_GUARD_MS = 10_000;
const WIDGET_LIMIT = 64 * 1024;

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  continued: boolean;
}

interface Upstream {
  server: Server;
  url: string;
  seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; bytes: number }>;
  streams: { opened: number; closed: number };
}

/** Echoes what it received; `/stream` answers a never-ending event stream until the reader goes away. */
async function startUpstream(): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const streams = { opened: 0, closed: 0 };
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/stream')) {
      streams.opened++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const tick = setInterval(() => res.write('data: tick\n\n'), 5);
      res.on('close', () => {
        clearInterval(tick);
        streams.closed++;
      });
      return;
    }
    if (req.url?.endsWith('/cut')) {
      // An upstream that dies mid-answer: headers and part of the declared body, then a reset.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 5);
      return;
    }
    if (req.url?.endsWith('/answer-first')) {
      // Answers before reading the upload, then reads it to the end.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('started\n');
      req.resume();
      req.on('end', () => res.end('done\n'));
      return;
    }
    if (req.url?.endsWith('/refuse-early')) {
      // An auth guard refusing an upload before reading it. Node then reads and drops the rest of
      // the body on its own (an upstream that reset the connection instead would lose its answer
      // in transit, and the gateway rightly reports 502).
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Unauthenticated."}');
      return;
    }
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, bytes });
      res.writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive, x-upstream-private', 'x-upstream-private': 'hop', 'keep-alive': 'timeout=5' });
      res.end(JSON.stringify({ ok: true, bytes }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, streams };
}

/** Accepts connections and requests, and never answers. */
async function startHangingUpstream(): Promise<{ server: Server; url: string }> {
  const server = createServer((req) => req.resume());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function withGuard<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hung: ${what}`)), HANG_GUARD_MS)));
  return Promise.race([p, guard]).finally(() => clearTimeout(timer));
}

/** Runs `count` tasks, `width` at a time. */
async function storm<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < count; i = next++) out[i] = await task(i);
    }),
  );
  return out;
}

describe('gateway under abuse', () => {
  let kb: Upstream;
  let iam: Upstream;
  let hanging: Awaited<ReturnType<typeof startHangingUpstream>>;
  let gateway: RunningService;
  let host: string;
  let port: number;

  /**
   * One request on its own connection. `body` is sent at once unless `waitForContinue`; `sendBytes`
   * limits how much of it is sent (then the request stays open, or is destroyed with `abortAfterSend`).
   */
  function send(
    method: string,
    path: string,
    options: {
      headers?: Record<string, string | number>;
      body?: Buffer;
      waitForContinue?: boolean;
      sendBytes?: number;
      abortAfterSend?: boolean;
    } = {},
  ): Promise<Answer> {
    return withGuard(
      `${method} ${path}`,
      new Promise<Answer>((resolve, reject) => {
        let continued = false;
        const req = request({ host, port, method, path, headers: options.headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString(), continued }));
          res.on('error', reject);
        });
        req.on('error', (e) => (options.abortAfterSend ? resolve({ status: 0, headers: {}, body: '', continued }) : reject(e)));
        const body = options.body;
        const write = () => {
          if (!body) return void req.end();
          if (options.sendBytes === undefined) return void req.end(body);
          req.write(body.subarray(0, options.sendBytes));
          if (options.abortAfterSend) setTimeout(() => req.destroy(), 5);
        };
        req.on('continue', () => {
          continued = true;
          if (options.waitForContinue) write();
        });
        if (options.waitForContinue) req.flushHeaders();
        else write();
      }),
    );
  }

  /** Raw bytes on a fresh connection; resolves with everything the gateway sent before it closed. */
  function raw(bytes: string | Buffer): Promise<string> {
    return withGuard(
      'raw request',
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, host);
        const chunks: Buffer[] = [];
        socket.on('data', (c) => chunks.push(c));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
        // No half-close: Node takes a client's FIN as the request being abandoned. The gateway
        // closes after an error; valid requests here ask it to with Connection: close.
        socket.write(bytes);
      }),
    );
  }

  /** The gateway's count of proxied requests to the kb upstream that ended with `outcome`. */
  async function kbOutcomes(outcome: string): Promise<number> {
    const metrics = await send('GET', '/metrics');
    expect(metrics.status).toBe(200);
    const line = metrics.body.split('\n').find((l) => l.startsWith('gateway_upstream_requests_total{') && l.includes('upstream="kb"') && l.includes(`outcome="${outcome}"`));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  }

  function expectJsonProblem(a: Answer, status: number, code: string): void {
    expect(a.status).toBe(status);
    expect(a.headers['content-type']).toContain('application/problem+json');
    const body = JSON.parse(a.body) as { status: number; code: string; request_id: string };
    expect(body).toMatchObject({ status, code });
    expect(body.request_id).toBe(a.headers['x-request-id']);
  }

  /** The proof after every storm: each healthy upstream answers a plain request. */
  async function expectHealthy(): Promise<void> {
    const [toIam, toKb] = await Promise.all([send('GET', '/.well-known/jwks.json'), send('POST', '/api/kb/search', { headers: { 'content-type': 'application/json' }, body: Buffer.from('{"q":"ok"}') })]);
    expect(toIam.status).toBe(200);
    expect(toKb.status).toBe(200);
    expect(JSON.parse(toKb.body)).toEqual({ ok: true, bytes: 10 });
    expect((await send('GET', '/health/ready')).status).toBe(200);
  }

  beforeAll(async () => {
    kb = await startUpstream();
    iam = await startUpstream();
    hanging = await startHangingUpstream();
    gateway = await startServiceForTest({
      service: 'gateway',
      loadAppModule: async () => (await import('../src/app.module')).AppModule,
      httpOptions: { configure: mountProxy },
      env: {
        UPSTREAM_IAM_URL: iam.url,
        UPSTREAM_KB_URL: kb.url,
        UPSTREAM_EVIDENCE_URL: hanging.url,
        // Nothing listens on port 9 (discard) locally: a refused connection.
        UPSTREAM_GUARDRAILS_URL: 'http://127.0.0.1:9',
        GATEWAY_UPSTREAM_CONNECTIONS: String(CONNECTIONS),
        GATEWAY_UPSTREAM_TIMEOUT_MS: '400',
        GATEWAY_QUEUE_TIMEOUT_MS: '1500',
        GATEWAY_CLIENT_BODY_TIMEOUT_MS: '200',
        GATEWAY_CLIENT_HEADERS_TIMEOUT_MS: '300',
        GATEWAY_BODY_LIMITS: JSON.stringify({ '/api/widget': WIDGET_LIMIT }),
      },
    });
    const u = new URL(gateway.url);
    host = u.hostname;
    port = Number(u.port);
  });

  afterAll(async () => {
    await gateway.stop();
    for (const s of [kb.server, iam.server, hanging.server]) {
      s.closeAllConnections();
      s.close();
    }
  });

  it('serves Expect: 100-continue (GET and POST) without leaking connections', async () => {
    const gets = await storm(200, 20, () => send('GET', '/.well-known/jwks.json', { headers: { expect: '100-continue' } }));
    expect(gets.every((a) => a.status === 200)).toBe(true);
    const body = Buffer.alloc(48 * 1024, 'a');
    // A client that waits for the 100 before sending, and one (curl after its wait) that does not.
    const posts = await storm(200, 20, (i) =>
      send('POST', '/api/kb/ingest', { headers: { expect: '100-continue', 'content-type': 'application/json', 'content-length': body.length }, body, waitForContinue: i % 2 === 0 }),
    );
    for (const a of posts) {
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body)).toEqual({ ok: true, bytes: body.length });
    }
    expect(posts.filter((a, i) => i % 2 === 0).every((a) => a.continued)).toBe(true);
    // The expectation is this hop's business: the upstream never sees it.
    expect(kb.seen.some((s) => s.headers.expect !== undefined)).toBe(false);
    await expectHealthy();
  });

  it('answers 417 to an expectation other than 100-continue, and 413 without a 100 to an oversized one', async () => {
    expectJsonProblem(await send('POST', '/api/kb/ingest', { headers: { expect: 'something-else', 'content-length': 2 }, body: Buffer.from('{}') }), 417, 'expectation_failed');
    const big = Buffer.alloc(WIDGET_LIMIT + 1, 'b');
    const answers = await storm(100, 20, () =>
      send('POST', '/api/widget/chat', { headers: { expect: '100-continue', 'content-length': big.length }, body: big, waitForContinue: true }),
    );
    for (const a of answers) {
      expectJsonProblem(a, 413, 'payload_too_large');
      expect(a.continued).toBe(false);
    }
    await expectHealthy();
  });

  it('refuses oversized bodies with 413, whether declared or chunked', async () => {
    const big = Buffer.alloc(WIDGET_LIMIT * 3, 'c');
    const answers = await storm(200, 20, (i) =>
      // Without a content-length Node's client sends the body chunked: the limit is found mid-stream.
      send('POST', '/api/widget/chat', { headers: i % 2 === 0 ? { 'content-length': big.length } : { 'transfer-encoding': 'chunked' }, body: big }),
    );
    for (const a of answers) expectJsonProblem(a, 413, 'payload_too_large');
    await expectHealthy();
  });

  it('gives the connection back when clients abort uploads', async () => {
    const body = Buffer.alloc(256 * 1024, 'd');
    const before = kb.seen.length;
    await storm(200, 20, () => send('POST', '/api/kb/ingest', { headers: { 'content-length': body.length }, body, sendBytes: 1024, abortAfterSend: true }));
    // No truncated body was passed off as a whole one.
    expect(kb.seen.slice(before).every((s) => s.bytes === body.length)).toBe(true);
    await expectHealthy();
  });

  it('gives the connection back when clients reset mid-response', async () => {
    const opened = kb.streams.opened;
    const abortedBefore = await kbOutcomes('client_aborted');
    const statuses = await storm(200, CONNECTIONS * 2, () =>
      withGuard(
        'stream reader',
        new Promise<number>((resolve, reject) => {
          const req = request({ host, port, path: '/api/kb/chat/stream', agent: false }, (res) => {
            res.once('data', () => {
              req.destroy();
              resolve(res.statusCode!);
            });
          });
          req.on('error', (e: NodeJS.ErrnoException) => (req.destroyed ? undefined : reject(e)));
          req.end();
        }),
      ),
    );
    // Twice as many readers as connections: one may wait for a slot past the queue limit (503).
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    const served = statuses.filter((s) => s === 200).length;
    // Each stream holds a connection until its reader leaves; had leaving not given it back, no
    // more than CONNECTIONS streams could ever have been served.
    expect(served).toBeGreaterThan(CONNECTIONS * 4);
    expect(kb.streams.opened - opened).toBe(served);
    // Counted as the client's doing, not the upstream's.
    expect((await kbOutcomes('client_aborted')) - abortedBefore).toBe(served);
    // Every upstream stream the readers left is closed upstream as well.
    await withGuard('upstream streams closed', (async () => {
      while (kb.streams.closed < kb.streams.opened) await new Promise((r) => setTimeout(r, 20));
    })());
    await expectHealthy();
  });

  it('cuts the client connection when the upstream fails mid-answer, counts it as an upstream error, and stays up', async () => {
    const errorsBefore = await kbOutcomes('error');
    const abortedBefore = await kbOutcomes('client_aborted');
    const outcomes = await storm(50, CONNECTIONS * 2, () =>
      withGuard(
        'cut answer',
        new Promise<string>((resolve) => {
          const req = request({ host, port, path: '/api/kb/cut', agent: false }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            // The client must learn that the answer is incomplete: never a clean end of a partial body.
            res.on('end', () => resolve(`ended:${res.statusCode}:${body}`));
            res.on('error', () => resolve(`cut:${res.statusCode}`));
          });
          req.on('error', () => resolve('cut'));
          req.end();
        }),
      ),
    );
    expect(outcomes.every((o) => o.startsWith('cut'))).toBe(true);
    expect((await kbOutcomes('error')) - errorsBefore).toBe(50);
    expect(await kbOutcomes('client_aborted')).toBe(abortedBefore);
    await expectHealthy();
  });

  it("cuts the answer, as the client's error, when the client's upload stalls after the upstream answered", async () => {
    const before = { clientError: await kbOutcomes('client_error'), error: await kbOutcomes('error') };
    const outcome = await withGuard(
      'stalled upload',
      new Promise<string>((resolve) => {
        const req = request({ host, port, method: 'POST', path: '/api/kb/answer-first', headers: { 'content-length': 256 * 1024 }, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve(`ended:${res.statusCode}`));
          res.on('error', () => resolve(`cut:${res.statusCode}`));
        });
        req.on('error', () => resolve('cut'));
        // More than the gateway reads ahead (64 KiB, so the upstream gets the request and answers), less than the
        // declared body, then nothing: the gateway's body timeout (200 ms) ends it.
        req.write(Buffer.alloc(80 * 1024, 'u'));
      }),
    );
    expect(outcome.startsWith('cut')).toBe(true);
    expect((await kbOutcomes('client_error')) - before.clientError).toBe(1);
    expect(await kbOutcomes('error')).toBe(before.error);
    await expectHealthy();
  });

  it("relays an upstream's early answer to an upload it did not read", async () => {
    const body = Buffer.alloc(512 * 1024, 'f');
    const answers = await storm(100, 20, (i) =>
      send('POST', '/api/kb/ingest/refuse-early', { headers: i % 2 === 0 ? { 'content-length': body.length } : { expect: '100-continue', 'content-length': body.length }, body }),
    );
    for (const a of answers) expect(a.status).toBe(401);
    await expectHealthy();
  });

  it('answers 408 to bodies that stall, and closes those connections', async () => {
    const body = Buffer.alloc(4096, 'e');
    // As many at once as there are connections: each holds one while it stalls (more would queue, then 503).
    const answers = await storm(40, CONNECTIONS, () => send('POST', '/api/kb/ingest', { headers: { 'content-length': body.length }, body, sendBytes: 100 }));
    for (const a of answers) {
      expectJsonProblem(a, 408, 'request_timeout');
      expect(a.headers.connection).toBe('close');
    }
    await expectHealthy();
  });

  it('answers 408 to header sections that never finish', async () => {
    const answers = await storm(40, 20, () => raw('GET /api/kb/x HTTP/1.1\r\nHost: a\r\nX-Slow: '));
    for (const text of answers) {
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 408, code: 'request_timeout' });
    }
    await expectHealthy();
  });

  it('handles garbage and odd headers with a 4xx JSON answer or a clean pass-through', async () => {
    const malformed = [
      'NOT HTTP AT ALL\r\n\r\n',
      'GET /api/kb/x HTTP/1.1\r\nHost: a\r\nno colon here\r\n\r\n',
      'GET /api/kb/x HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n',
      'POST /api/kb/x HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
      'POST /api/kb/x HTTP/1.1\r\nHost: a\r\nContent-Length: nope\r\n\r\n',
      `GET /api/kb/x HTTP/1.1\r\nHost: a\r\nX-Huge: ${'h'.repeat(20_000)}\r\n\r\n`,
      'GET /api/kb/x\u0000 HTTP/1.1\r\nHost: a\r\n\r\n',
    ];
    const answers = await storm(malformed.length * 20, 20, (i) => raw(malformed[i % malformed.length]));
    for (const text of answers) {
      const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
      expect(head.toLowerCase()).toContain('content-type: application/problem+json');
      expect(JSON.parse(body)).toMatchObject({ status });
    }
    expect(answers.some((t) => t.startsWith('HTTP/1.1 431'))).toBe(true);

    // Well-formed but odd: hop-by-hop and connection-named fields, obs-text, an absolute-form target.
    const odd = [
      'GET /api/kb/odd HTTP/1.1\r\nHost: a\r\nConnection: close, X-Secret-Hop\r\nX-Secret-Hop: 1\r\nKeep-Alive: timeout=1\r\nProxy-Connection: keep-alive\r\nProxy-Authorization: Basic eA==\r\nTE: gzip\r\nUpgrade: websocket\r\n\r\n',
      'GET /api/kb/odd HTTP/1.1\r\nHost: a\r\nConnection: close\r\nX-Latin: caf\xe9\r\n\r\n',
      'POST /api/kb/odd HTTP/1.1\r\nHost: a\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
      'GET http://elsewhere.example/api/kb/odd HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
      'GET /api/kb/odd HTTP/1.0\r\nExpect: 100-continue\r\n\r\n',
    ];
    const before = kb.seen.length;
    const oddAnswers = await storm(odd.length * 20, 20, (i) => raw(Buffer.from(odd[i % odd.length], 'latin1')));
    for (const text of oddAnswers) {
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1]);
      expect(status).toBeGreaterThanOrEqual(200);
      expect(status).toBeLessThan(500);
    }
    const seen = kb.seen.slice(before).filter((s) => s.url === '/api/kb/odd');
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      for (const h of ['x-secret-hop', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'upgrade', 'expect']) expect(s.headers[h]).toBeUndefined();
    }
    // The chunked body arrives whole (re-framed by the gateway's own hop).
    expect(seen.some((s) => s.bytes === 5)).toBe(true);
    // And in the other direction: the upstream's connection-specific fields stay on its hop.
    const back = await send('GET', '/api/kb/odd');
    expect(back.headers['x-upstream-private']).toBeUndefined();
    expect(back.headers['keep-alive']).toBeUndefined();
    await expectHealthy();
  });

  it('answers 504 or 503 (with Retry-After) for an upstream that hangs, 502 for one that is down, and stays up', async () => {
    const warned = jest.spyOn(Logger.prototype, 'warn');
    // All at once: CONNECTIONS at a time time out (504), so those queued behind many rounds of
    // them wait past the queue limit (503).
    const hung = await storm(60, 60, () => send('GET', '/evidence-risk-review/reviews'));
    for (const a of hung) {
      expect([503, 504]).toContain(a.status);
      expectJsonProblem(a, a.status, a.status === 503 ? 'upstream_busy' : 'upstream_timeout');
      if (a.status === 503) expect(Number(a.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(hung.some((a) => a.status === 503)).toBe(true);
    expect(hung.some((a) => a.status === 504)).toBe(true);
    const down = await storm(40, 20, () => send('POST', '/guardrails/api/try/screen', { headers: { 'content-type': 'application/json' }, body: Buffer.from('{"prompt":"x"}') }));
    for (const a of down) expectJsonProblem(a, 502, 'upstream_unavailable');
    // Its logs name the upstreams as /metrics does, never their addresses.
    const lines = warned.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('upstream '));
    warned.mockRestore();
    expect(lines.some((l) => l.startsWith('upstream evidence busy') || l.startsWith('upstream evidence failed'))).toBe(true);
    expect(lines.some((l) => l.startsWith('upstream guardrails failed') && l.endsWith('ECONNREFUSED'))).toBe(true);
    for (const l of lines) expect(l).not.toMatch(/127\.0\.0\.1|http:/);
    await expectHealthy();
  });
});

describe('gateway: a declared body that never starts', () => {
  let upstream: Upstream;
  let gateway: RunningService;

  beforeAll(async () => {
    upstream = await startUpstream();
    // The upstream drops a keep-alive connection idle for 50 ms, far sooner than the gateway gives a client's body.
    upstream.server.keepAliveTimeout = 50;
    gateway = await startServiceForTest({
      service: 'gateway',
      loadAppModule: async () => (await import('../src/app.module')).AppModule,
      httpOptions: { configure: mountProxy },
      env: { UPSTREAM_KB_URL: upstream.url, UPSTREAM_IAM_URL: upstream.url, UPSTREAM_EVIDENCE_URL: upstream.url, UPSTREAM_GUARDRAILS_URL: upstream.url, GATEWAY_CLIENT_BODY_TIMEOUT_MS: '1500' },
    });
  });

  afterAll(async () => {
    await gateway.stop();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  /** POST with a declared body; `send` false: the body never comes. */
  const post = (send: boolean) =>
    withGuard(
      'declared body',
      new Promise<number>((resolve, reject) => {
        const req = request(`${gateway.url}/api/kb/ingest`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': 2 } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        });
        req.on('error', reject);
        if (send) req.end('{}');
        else req.flushHeaders();
      }),
    );

  it('answers 408 (the client stalled), not 502, though the upstream closed its pooled connection meanwhile', async () => {
    for (let round = 0; round < 3; round++) {
      // A warm pooled connection first (its own answer may lose the keep-alive race this upstream invites, so it is not
      // the point), then a request that declares a body and sends none of it.
      await post(true);
      expect(await post(false)).toBe(408);
    }
  });
});
