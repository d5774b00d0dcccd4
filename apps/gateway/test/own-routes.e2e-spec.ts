import { createServer, Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { RunningService } from '@platform/testing';
import { startGatewayOver } from './gateway-over';

/**
 * The gateway's own routes (health, metrics, docs, the 404 of an unknown path) take no request
 * body: one is refused in the gateway's JSON shape, never buffered, and a body that stalls is
 * timed like a proxied one.
 */

/** A hang guard only (a wedged gateway fails the test instead of stalling it), never a timing assertion. */
const HANG_GUARD_MS = 10_000;

describe("gateway: request bodies on the gateway's own routes", () => {
  let upstream: Server;
  let gateway: RunningService;
  let port: number;

  beforeAll(async () => {
    upstream = createServer((req, res) => res.end('{}'));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    gateway = await startGatewayOver(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, {
      GATEWAY_CLIENT_BODY_TIMEOUT_MS: '300',
      GATEWAY_CLIENT_BODY_DEADLINE_MS: '600',
    });
    port = Number(new URL(gateway.url).port);
  });

  afterAll(async () => {
    await gateway.stop();
    upstream.closeAllConnections();
    upstream.close();
  });

  /** Raw bytes on a fresh connection (more after `thenAfterMs` when given); resolves with everything the gateway sent before it closed. */
  function raw(bytes: string | Buffer): Promise<string> {
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

  function parse(text: string): { status: number; head: string; body: { status?: number; code?: string; detail?: string } } {
    const split = text.indexOf('\r\n\r\n');
    const head = text.slice(0, split);
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head: head.toLowerCase(), body: JSON.parse(text.slice(split + 4)) as { status?: number; code?: string } };
  }

  it('refuses a body on its own routes with 413 in its JSON shape and closes the connection', async () => {
    const json = `{"pad":"${'x'.repeat(60 * 1024)}"}`;
    for (const request of [
      `POST /nope HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n${json}`,
      `GET /health/live HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
      'POST /metrics HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n3\r\na=b\r\n0\r\n\r\n',
      // Refused without being read: larger than the gateway drains, or the client waits for 100 Continue.
      `POST /docs HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n{"a":`,
      'POST /nope HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 200\r\nExpect: 100-continue\r\n\r\n',
    ]) {
      const text = await raw(request);
      const answer = parse(text);
      const what = request.slice(0, 30);
      expect([what, answer.status]).toEqual([what, 413]);
      expect(answer.body).toMatchObject({ status: 413, code: 'payload_too_large' });
      expect(answer.head).toContain('content-type: application/problem+json');
      expect(answer.head).toContain('connection: close');
      expect(answer.head).toContain('x-content-type-options: nosniff');
      expect(text).not.toContain('100 Continue');
    }
    // Without a body they are served.
    expect(parse(await raw('GET /health/live HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')).status).toBe(200);
    expect(parse(await raw('POST /nope HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).status).toBe(404);
  });

  it('answers 408 and closes when a body sent to its own routes stalls, as for a proxied one', async () => {
    for (const request of [
      'POST /nope HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
      'POST /nope HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n',
    ]) {
      const answer = parse(await raw(request));
      expect(answer.status).toBe(408);
      expect(answer.body).toMatchObject({ status: 408, code: 'request_timeout' });
      expect(answer.head).toContain('connection: close');
    }
  });
});
