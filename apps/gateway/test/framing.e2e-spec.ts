import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { RunningService } from '@platform/testing';
import { MAX_HEADER_FIELDS } from '../src/app/proxy/request-framing';
import { startGatewayOver } from './gateway-over';

/** A hang guard only (a wedged gateway fails the test instead of stalling it), never a timing assertion. */
const HANG_GUARD_MS = 10_000;

/** An upstream that records what reaches it and echoes the body's size. */
async function startUpstream(): Promise<{ server: Server; url: string; seen: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> }> {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('latin1');
      seen.push({ url: req.url!, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes: body.length }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('gateway: request framing HTTP/1.1 forbids', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: RunningService;
  let port: number;

  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await startGatewayOver(upstream.url);
    port = Number(new URL(gateway.url).port);
  });

  afterAll(async () => {
    await gateway.stop();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  /** Raw bytes on a fresh connection; resolves with everything the gateway sent before it closed. */
  function raw(bytes: string): Promise<string> {
    let timer: NodeJS.Timeout;
    const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('hung: raw request')), HANG_GUARD_MS)));
    const exchange = new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c) => chunks.push(c));
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? undefined : reject(e)));
      socket.write(bytes);
    });
    return Promise.race([exchange, guard]).finally(() => clearTimeout(timer));
  }

  /** The status and problem document of a raw answer. */
  function parse(text: string): { status: number; head: string; body: { status?: number; code?: string } } {
    const split = text.indexOf('\r\n\r\n');
    const head = text.slice(0, split);
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head: head.toLowerCase(), body: JSON.parse(text.slice(split + 4)) as { status?: number; code?: string } };
  }

  it('answers 400 to a request with two Host headers, proxied or local, and forwards nothing', async () => {
    const before = upstream.seen.length;
    for (const request of [
      'GET /api/kb/x HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n',
      'POST /oauth/token HTTP/1.1\r\nHost: a.example\r\nContent-Length: 2\r\nhost: a.example\r\n\r\n{}',
      'GET /health/live HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n',
      'GET /api/kb/x HTTP/1.1\r\nHost: a b\r\n\r\n',
    ]) {
      const answer = parse(await raw(request));
      expect([request, answer.status]).toEqual([request, 400]);
      expect(answer.body).toMatchObject({ status: 400, code: 'bad_request' });
      expect(answer.head).toContain('content-type: application/problem+json');
      expect(answer.head).toContain('connection: close');
      expect(answer.head).toContain('x-content-type-options: nosniff');
    }
    expect(upstream.seen.length).toBe(before);
    // One Host is still served.
    expect(await raw('GET /api/kb/x HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers 501 to a transfer coding other than chunked alone, and forwards nothing', async () => {
    const before = upstream.seen.length;
    // The body is "hello" gzipped and then chunked: forwarded as plain, the upstream would take the gzip bytes for the body.
    const gzipped = Buffer.from('1f8b0800000000000003cb48cdc9c9070086a6103605000000', 'hex').toString('latin1');
    const chunk = `${gzipped.length.toString(16)}\r\n${gzipped}\r\n0\r\n\r\n`;
    for (const request of [
      `POST /api/kb/ingest HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${chunk}`,
      `POST /oauth/token HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`,
      `POST /api/kb/ingest HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: deflate, chunked\r\nExpect: 100-continue\r\n\r\n`,
    ]) {
      const answer = parse(await raw(request));
      expect([request, answer.status]).toEqual([request, 501]);
      expect(answer.body).toMatchObject({ status: 501, code: 'not_implemented' });
      expect(answer.head).toContain('content-type: application/problem+json');
      expect(answer.head).toContain('connection: close');
      // A client waiting for 100 is never told to send the body.
      expect(answer.head).not.toContain('100 continue');
    }
    const twice = parse(await raw('POST /api/kb/ingest HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'));
    expect(twice.status).toBe(400);
    expect(upstream.seen.length).toBe(before);
    // Chunked alone is still served, its body arriving whole.
    const plain = await raw('POST /api/kb/ingest HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n');
    expect(plain).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.seen.at(-1)?.body).toBe('hello');
  });

  it('answers 431 to more header fields than it forwards safely, so the client address it adds always reaches the service', async () => {
    const pad = (n: number) => Array.from({ length: n }, (_, i) => `X-Pad-${i}: x\r\n`).join('');
    // ~996 fields: forwarded with the gateway's own after them, the service's parser (first 1000
    // fields kept) dropped X-Forwarded-For and took the gateway for the client.
    const before = upstream.seen.length;
    for (const path of ['/api/auth/login', '/health/live']) {
      const answer = parse(await raw(`GET ${path} HTTP/1.1\r\nHost: a\r\n${pad(994)}Connection: close\r\n\r\n`));
      expect([path, answer.status]).toEqual([path, 431]);
      expect(answer.body).toMatchObject({ status: 431, code: 'request_header_fields_too_large' });
      expect(answer.head).toContain('content-type: application/problem+json');
      expect(answer.head).toContain('connection: close');
      expect(answer.head).toContain('x-content-type-options: nosniff');
    }
    expect(upstream.seen.length).toBe(before);
    // At the cap, the request is forwarded and the service sees the client's address.
    const atCap = await raw(`GET /api/auth/login HTTP/1.1\r\nHost: a\r\n${pad(MAX_HEADER_FIELDS - 2)}Connection: close\r\n\r\n`);
    expect(atCap).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.seen.at(-1)?.headers).toMatchObject({ 'x-forwarded-for': '127.0.0.1', 'x-forwarded-host': 'a', [`x-pad-${MAX_HEADER_FIELDS - 3}`]: 'x' });
  });

  it('answers 400 in its JSON shape to an HTTP/1.1 request without Host (RFC 9112 §3.2), and still serves HTTP/1.0 without one', async () => {
    const before = upstream.seen.length;
    for (const request of ['GET / HTTP/1.1\r\n\r\n', 'GET /api/kb/x HTTP/1.1\r\nConnection: close\r\n\r\n', 'GET http://a.example/api/kb/x HTTP/1.1\r\n\r\n']) {
      const answer = parse(await raw(request));
      expect([request, answer.status]).toEqual([request, 400]);
      expect(answer.body).toMatchObject({ status: 400, code: 'bad_request', detail: 'an HTTP/1.1 request must have a Host header' });
      expect(answer.head).toContain('content-type: application/problem+json');
      expect(answer.head).toContain('connection: close');
      expect(answer.head).toContain('x-content-type-options: nosniff');
    }
    expect(upstream.seen.length).toBe(before);
    expect(await raw('GET /api/kb/x HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.seen.at(-1)?.headers['x-forwarded-host']).toBe('');
  });

  it('answers CONNECT 501 in its JSON shape and closes, instead of dropping the connection', async () => {
    const before = upstream.seen.length;
    for (const request of [`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, 'CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n']) {
      const answer = parse(await raw(request));
      expect([request, answer.status]).toEqual([request, 501]);
      expect(answer.body).toMatchObject({ status: 501, code: 'not_implemented' });
      expect(answer.head).toContain('content-type: application/problem+json');
      expect(answer.head).toContain('connection: close');
      expect(answer.head).toContain('x-content-type-options: nosniff');
    }
    expect(upstream.seen.length).toBe(before);
  });

  it('answers a request asking for a protocol upgrade as plain HTTP and closes the connection, so none pipelined after it waits unanswered', async () => {
    for (const [request, status] of [
      ['GET /api/kb/x HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nGET /api/kb/y HTTP/1.1\r\nHost: a\r\n\r\n', 200],
      ['GET /health/live HTTP/1.1\r\nHost: a\r\nUpgrade: foo\r\nConnection: upgrade\r\n\r\nGET /health/live HTTP/1.1\r\nHost: a\r\n\r\n', 200],
      ['GET /nope HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n', 404],
    ] as const) {
      // The connection closing is the proof: Node's parser stops after an upgrade request, so one left open would never answer what follows.
      const text = await raw(request);
      // One answer only (chunked or not), and the connection closed after it.
      expect([request, text.match(/^HTTP\/1\.1 /gm)?.length, Number(text.slice(9, 12))]).toEqual([request, 1, status]);
      expect(text.slice(0, text.indexOf('\r\n\r\n')).toLowerCase()).toContain('connection: close');
    }
    // curl's h2c upgrade on a request with a body: the body still reaches the upstream, and no Upgrade with it.
    const h2c = await raw('POST /api/kb/ingest HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\nContent-Length: 5\r\n\r\nhello');
    expect(h2c).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.seen.at(-1)).toMatchObject({ url: '/api/kb/ingest', body: 'hello' });
    expect(upstream.seen.at(-1)?.headers.upgrade).toBeUndefined();
  });

  it('answers 400 to a request line without a version (HTTP/0.9) and 505 to HTTP/2.0, forwarding nothing', async () => {
    const before = upstream.seen.length;
    const nine = parse(await raw('GET /api/kb/x\r\n\r\n'));
    expect(nine).toMatchObject({ status: 400, body: { status: 400, code: 'bad_request' } });
    expect(nine.head).toContain('connection: close');
    for (const path of ['/api/kb/x', '/health/live']) {
      const two = parse(await raw(`GET ${path} HTTP/2.0\r\nHost: a\r\n\r\n`));
      expect([path, two.status]).toEqual([path, 505]);
      expect(two.body).toMatchObject({ status: 505, code: 'http_version_not_supported' });
      expect(two.head).toContain('content-type: application/problem+json');
    }
    expect(upstream.seen.length).toBe(before);
  });

  it('answers TRACE 405 itself, never forwarding it', async () => {
    const before = upstream.seen.length;
    for (const path of ['/api/kb/x', '/oauth/token', '/health/live']) {
      const answer = parse(await raw(`TRACE ${path} HTTP/1.1\r\nHost: a\r\nCookie: session=secret\r\nConnection: close\r\n\r\n`));
      expect([path, answer.status]).toEqual([path, 405]);
      expect(answer.body).toMatchObject({ status: 405, code: 'method_not_allowed' });
      expect(answer.head).toMatch(/\nallow: get, head, post, put, patch, delete, options/);
    }
    expect(upstream.seen.length).toBe(before);
  });

  it('answers 431 itself to a header section that would grow past what the service accepts once the gateway adds its own fields', async () => {
    const before = upstream.seen.length;
    // Under the gateway's own 16 KiB, but not with X-Request-Id, X-Forwarded-* and the upstream's Host added.
    const answer = parse(await raw(`GET /api/kb/x HTTP/1.1\r\nHost: a\r\nX-Pad: ${'p'.repeat(16_300)}\r\nConnection: close\r\n\r\n`));
    expect(answer).toMatchObject({ status: 431, body: { status: 431, code: 'request_header_fields_too_large' } });
    expect(answer.head).toContain('content-type: application/problem+json');
    expect(upstream.seen.length).toBe(before);
    // With room for what the gateway adds, it is forwarded.
    expect(await raw(`GET /api/kb/x HTTP/1.1\r\nHost: a\r\nX-Pad: ${'p'.repeat(15_800)}\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.seen.length).toBe(before + 1);
  });

  it('routes an absolute-form target by its path, the authority of the target replacing Host (RFC 9112 §3.2.2)', async () => {
    const answer = await raw(`GET http://127.0.0.1:${port}/.well-known/jwks.json?x=1 HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.seen.at(-1)).toMatchObject({ url: '/.well-known/jwks.json?x=1', headers: { 'x-forwarded-host': `127.0.0.1:${port}` } });
    // Scheme in any case, an https target, and an upstream's health through the gateway.
    expect(await raw('POST HTTPS://api.example/api/kb/ingest HTTP/1.1\r\nHost: api.example\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}')).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.seen.at(-1)).toMatchObject({ url: '/api/kb/ingest', body: '{}', headers: { 'x-forwarded-host': 'api.example' } });
    expect(await raw('GET http://a.example/health/kb/live HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.seen.at(-1)?.url).toBe('/health/live');
    // The gateway's own routes and its 404 see the same origin-form.
    expect(await raw('GET http://a.example/metrics HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
    expect(parse(await raw('GET http://a.example?x=1 HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n'))).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it('refuses an absolute-form target it cannot take for its own with 400, forwarding nothing', async () => {
    const before = upstream.seen.length;
    for (const target of ['http://user@a.example/api/kb/x', 'http://:80/api/kb/x', 'http://a b/api/kb/x', 'ftp://a.example/api/kb/x']) {
      const answer = parse(await raw(`GET ${target} HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n`));
      expect([target, answer.status]).toEqual([target, 400]);
      expect(answer.body).toMatchObject({ status: 400, code: 'bad_request' });
      expect(answer.head).toContain('x-content-type-options: nosniff');
    }
    // The Host line is checked as in origin-form before the target's authority replaces it.
    expect(parse(await raw('GET http://a.example/api/kb/x HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n')).status).toBe(400);
    expect(upstream.seen.length).toBe(before);
  });
});
