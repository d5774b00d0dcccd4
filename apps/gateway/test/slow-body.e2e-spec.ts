import { createServer, IncomingHttpHeaders, request, Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { RunningService } from '@platform/testing';
import { startGatewayOver } from './gateway-over';

/**
 * Clients that send their bodies slowly, a byte at a time with every pause well under the body
 * timeout, as many of them as the pool has connections and more: each must end in 408 without
 * holding one of the upstream's connections, and other clients must be served meanwhile.
 */

/** Requests the pool holds per upstream: small, so a held connection per slow client shows at once. */
const CONNECTIONS = 4;
/** The attack: far more slow clients than connections. */
const SLOW_CLIENTS = 130;
/** A hang guard only (a wedged gateway fails the test instead of stalling it), never a timing assertion. */
const HANG_GUARD_MS = 20_000;
/** How often a slow client sends its next byte: far under the body timeout, so only the whole-body allowance can end it. */
const TRICKLE_EVERY_MS = 100;

interface Upstream {
  server: Server;
  url: string;
  /** Requests the upstream received (their headers arrived), body complete or not. */
  started: Array<{ url: string; headers: IncomingHttpHeaders }>;
  /** Requests whose whole body the upstream received. */
  seen: Array<{ url: string; body: string; forwardedFor: string | undefined }>;
}

async function startUpstream(): Promise<Upstream> {
  const started: Upstream['started'] = [];
  const seen: Upstream['seen'] = [];
  const server = createServer((req, res) => {
    started.push({ url: req.url!, headers: req.headers });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('latin1');
      seen.push({ url: req.url!, body, forwardedFor: req.headers['x-forwarded-for'] as string | undefined });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes: body.length }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, started, seen };
}

function withGuard<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hung: ${what}`)), HANG_GUARD_MS)));
  return Promise.race([p, guard]).finally(() => clearTimeout(timer));
}

/** Resolves once `done()` holds, checking every few ms (a hang guard bounds it). */
function until(what: string, done: () => boolean): Promise<void> {
  return withGuard(
    what,
    (async () => {
      while (!done()) await new Promise((r) => setTimeout(r, 10));
    })(),
  );
}

/** The final status (after any 100 Continue) and problem code of a raw answer. */
function finalAnswer(text: string): { status: number; code?: string; head: string } {
  const heads = [...text.matchAll(/HTTP\/1\.1 (\d{3})[^\r]*\r\n((?:[^\r]+\r\n)*)\r\n/g)];
  const last = heads.at(-1);
  if (!last) return { status: 0, head: '' };
  const body = text.slice(last.index! + last[0].length);
  return { status: Number(last[1]), code: body ? (JSON.parse(body) as { code?: string }).code : undefined, head: last[0].toLowerCase() };
}

describe('gateway: slow request bodies', () => {
  let upstream: Upstream;
  let gateway: RunningService;
  let port: number;

  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await startGatewayOver(upstream.url, {
      GATEWAY_UPSTREAM_CONNECTIONS: String(CONNECTIONS),
      GATEWAY_QUEUE_TIMEOUT_MS: '2000',
      // The pause allowed between bytes is long: only the whole-body allowance stops a trickle.
      GATEWAY_CLIENT_BODY_TIMEOUT_MS: '60000',
      GATEWAY_CLIENT_BODY_DEADLINE_MS: '3000',
      // 1 MiB/s: what a body's bytes earn is negligible here, so its allowance is about the deadline.
      GATEWAY_CLIENT_BODY_MIN_RATE: String(1024 * 1024),
      GATEWAY_BODY_BUFFER_BYTES: String(64 * 1024),
      GATEWAY_UPLOADS_PER_CLIENT: '1',
      // The test's clients all come from 127.0.0.1: X-Forwarded-For from there names distinct clients.
      GATEWAY_TRUSTED_PROXIES: 'loopback',
    });
    port = Number(new URL(gateway.url).port);
  });

  afterAll(async () => {
    await gateway.stop();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  /**
   * A raw request whose head and first body bytes go at once, then one more piece of body every
   * TRICKLE_EVERY_MS until the gateway answers. `answer` resolves with everything the gateway sent
   * before it closed; `ticks` counts the pieces sent so far.
   */
  function trickle(head: string, first: string, next: string): { answer: Promise<string>; ticks: () => number } {
    let ticks = 0;
    const answer = withGuard(
      'slow client',
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        const chunks: Buffer[] = [];
        const timer = setInterval(() => {
          if (!socket.writable) return;
          socket.write(next);
          ticks++;
        }, TRICKLE_EVERY_MS);
        socket.on('data', (c: Buffer) => {
          chunks.push(c);
          // Anything but a 100 Continue is the final answer: stop sending.
          if (!/^HTTP\/1\.1 100 [^\r]*\r\n\r\n$/.test(Buffer.concat(chunks).toString('latin1'))) clearInterval(timer);
        });
        socket.on('close', () => {
          clearInterval(timer);
          resolve(Buffer.concat(chunks).toString('latin1'));
        });
        socket.on('error', (e: NodeJS.ErrnoException) => (['ECONNRESET', 'EPIPE'].includes(e.code ?? '') ? undefined : reject(e)));
        socket.write(head + first);
      }),
    );
    return { answer, ticks: () => ticks };
  }

  /** One request on its own connection; resolves with its status and body. */
  function send(method: string, path: string, headers: Record<string, string | number>, body?: Buffer): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
    return withGuard(
      `${method} ${path}`,
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      }),
    );
  }

  const tokenForm = Buffer.from('grant_type=client_credentials&client_id=normal');
  const normalToken = () => send('POST', '/oauth/token', { 'content-type': 'application/x-www-form-urlencoded', 'content-length': tokenForm.length }, tokenForm);

  it(`serves normal clients while ${SLOW_CLIENTS} clients trickle small bodies, and answers each trickler 408 without it ever reaching the upstream`, async () => {
    const slow = Array.from({ length: SLOW_CLIENTS }, (_, i) => {
      const head = 'POST /oauth/token HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/x-www-form-urlencoded\r\n';
      // The attack as seen (a declared length, one byte at a time), the same waiting for 100 Continue, and chunked.
      if (i % 3 === 0) return trickle(`${head}Content-Length: 2000\r\n\r\n`, 'x', 'x');
      if (i % 3 === 1) return trickle(`${head}Content-Length: 2000\r\nExpect: 100-continue\r\n\r\n`, 'x', 'x');
      return trickle(`${head}Transfer-Encoding: chunked\r\n\r\n`, '1\r\nx\r\n', '1\r\nx\r\n');
    });
    // Every slow client is well into its body (the gateway has its headers and first bytes).
    await until('slow clients sending', () => slow.every((s) => s.ticks() >= 3));
    let settled = 0;
    for (const s of slow) void s.answer.then(() => settled++, () => settled++);

    // Normal clients arriving now, more of them than there are connections, one after another and at once.
    const normal = [];
    for (let i = 0; i < CONNECTIONS * 2; i++) normal.push(await normalToken());
    normal.push(...(await Promise.all(Array.from({ length: CONNECTIONS * 2 }, () => normalToken()))));
    normal.push(await send('GET', '/.well-known/jwks.json', {}));
    // They were served while the slow clients were all still sending.
    expect(settled).toBe(0);
    for (const a of normal) expect(a.status).toBe(200);
    expect(JSON.parse(normal[0].body)).toEqual({ bytes: tokenForm.length });

    // Each slow client runs out of its allowance: 408, and the connection is closed.
    for (const text of await Promise.all(slow.map((s) => s.answer))) {
      const answer = finalAnswer(text);
      expect(answer).toMatchObject({ status: 408, code: 'request_timeout' });
      expect(answer.head).toContain('connection: close');
    }
    // None of them ever reached the upstream: they held none of its connections.
    expect(upstream.started.filter((s) => s.url === '/oauth/token').length).toBe(normal.length - 1);
    expect((await normalToken()).status).toBe(200);
  });

  it('answers 408 to a large upload streamed too slowly, caps the uploads one client address streams (429), and serves the others meanwhile', async () => {
    const declared = 256 * 1024;
    // More than the gateway reads ahead, so the rest streams to the upstream: these hold connections while they trickle.
    const ahead = 'a'.repeat(80 * 1024);
    const head = (client: string) => `POST /api/kb/ingest/slow HTTP/1.1\r\nHost: gateway\r\nX-Forwarded-For: ${client}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\n`;
    const before = upstream.started.length;
    // Uploads may hold half of the 4 connections; this client may hold 1 of them (GATEWAY_UPLOADS_PER_CLIENT).
    const slow = [trickle(head('203.0.113.7'), ahead, 'a')];
    await until('the slow upload reaching the upstream', () => upstream.started.slice(before).filter((s) => s.url === '/api/kb/ingest/slow').length === 1);
    let settled = 0;
    for (const s of slow) void s.answer.then(() => settled++, () => settled++);

    const whole = Buffer.alloc(declared, 'b');
    const upload = (client: string) => send('POST', '/api/kb/ingest', { 'x-forwarded-for': client, 'content-type': 'application/octet-stream', 'content-length': declared }, whole);
    // A second upload from the same address is refused, however fast it would be sent.
    const second = await upload('203.0.113.7');
    // Another address uploads, and a small request goes through, while the slow upload holds its connection.
    const other = await upload('203.0.113.8');
    const small = await normalToken();
    expect(settled).toBe(0);
    expect(second.status).toBe(429);
    expect(JSON.parse(second.body)).toMatchObject({ status: 429, code: 'too_many_requests', detail: expect.stringContaining('this client already has 1 uploads') });
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body)).toEqual({ bytes: declared });
    expect(small.status).toBe(200);

    // The slow upload runs out of its allowance: 408, the connection closed, and the upstream never got a whole body.
    for (const text of await Promise.all(slow.map((s) => s.answer))) {
      const answer = finalAnswer(text);
      expect(answer).toMatchObject({ status: 408, code: 'request_timeout' });
      expect(answer.head).toContain('connection: close');
    }
    expect(upstream.seen.some((s) => s.url === '/api/kb/ingest/slow')).toBe(false);
    // Its connection and the address's upload place are back.
    const again = await Promise.all([upload('203.0.113.7'), upload('203.0.113.8')]);
    for (const a of again) expect(a.status).toBe(200);
    expect(JSON.parse(again[1].body)).toEqual({ bytes: declared });
    const normal = await Promise.all(Array.from({ length: CONNECTIONS * 2 }, () => normalToken()));
    for (const a of normal) expect(a.status).toBe(200);
  });
});
