import { createServer, get, Server } from 'node:http';
import { connect, Socket, type AddressInfo } from 'node:net';
import { RunningService } from '@platform/testing';
import { MAX_PIPELINED_WAITING } from '../src/app/proxy/mount-proxy';
import { startGatewayOver } from './gateway-over';
import { eventually, withGuard } from './hang-guard';

/**
 * Pipelining and clients that do not read, on raw sockets: whatever a connection does, every
 * request on it gives its upstream connection slot back. The pool is small so that a single
 * leaked slot per connection shows.
 */

const CONNECTIONS = 4;
const SEND_TIMEOUT_MS = 400;
/** A hang guard only (a wedged gateway fails the test instead of stalling it), never a timing assertion. */

interface Upstream {
  server: Server;
  url: string;
  /** Endless answers (`/big`) started and ended, and the most `/slow` requests in flight at once. */
  big: { opened: number; closed: number };
  slow: { active: number; max: number; order: string[] };
}

async function startUpstream(): Promise<Upstream> {
  const big = { opened: 0, closed: 0 };
  const slow = { active: 0, max: 0, order: [] as string[] };
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname.endsWith('/big')) {
      // An answer without end, written as fast as the reader takes it.
      big.opened++;
      res.on('close', () => big.closed++);
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 'b');
      const pump = () => {
        while (!res.destroyed) if (!res.write(chunk)) return void res.once('drain', pump);
      };
      pump();
      return;
    }
    if (url.pathname.endsWith('/slow')) {
      slow.active++;
      slow.max = Math.max(slow.max, slow.active);
      slow.order.push(url.searchParams.get('i') ?? '');
      setTimeout(() => {
        slow.active--;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ i: url.searchParams.get('i') }));
      }, 20);
      return;
    }
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, big, slow };
}



describe('gateway: pipelining and clients that do not read', () => {
  let upstream: Upstream;
  let gateway: RunningService;
  let port: number;
  const clients: Socket[] = [];

  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await startGatewayOver(upstream.url, {
      GATEWAY_UPSTREAM_CONNECTIONS: String(CONNECTIONS),
      GATEWAY_QUEUE_TIMEOUT_MS: '1000',
      GATEWAY_CLIENT_SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS),
    });
    port = Number(new URL(gateway.url).port);
  });

  afterAll(async () => {
    for (const s of clients) s.destroy();
    await gateway.stop();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  function get200(path: string): Promise<{ status: number; body: string }> {
    return withGuard(
      `GET ${path}`,
      new Promise((resolve, reject) => {
        get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        }).on('error', reject);
      }),
    );
  }

  /** A value of the gateway's /metrics: the series `name` with these labels (among others). */
  async function metric(name: string, labels: Record<string, string>): Promise<number> {
    const { status, body } = await get200('/metrics');
    expect(status).toBe(200);
    const line = body.split('\n').find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  }
  const slotsInUse = () => metric('gateway_upstream_slots', { upstream: 'kb', state: 'in_use' });
  const cut = (reason: string) => metric('gateway_client_connections_closed_total', { reason });

  /** A connection that writes `bytes` at once and then never reads. */
  function nonReader(bytes: string): Socket {
    const s = connect(port, '127.0.0.1', () => {
      s.write(bytes);
      s.pause();
    });
    s.on('error', () => undefined);
    clients.push(s);
    return s;
  }

  /** More requests than the pool holds, all at once: each is answered (none waits for a slot that never comes back). */
  async function expectPoolWhole(): Promise<void> {
    await eventually('slots back', async () => (await slotsInUse()) === 0);
    const answers = await Promise.all(Array.from({ length: CONNECTIONS * 3 }, () => get200('/api/kb/x')));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  }

  it('answers pipelined requests in order, starting each only once the one before it is answered', async () => {
    const count = 6;
    const requests = Array.from({ length: count }, (_, i) => `GET /api/kb/slow?i=${i} HTTP/1.1\r\nHost: a\r\n${i === count - 1 ? 'Connection: close\r\n' : ''}\r\n`).join('');
    const text = await withGuard(
      'pipelined answers',
      new Promise<string>((resolve) => {
        const s = connect(port, '127.0.0.1', () => s.write(requests));
        let out = '';
        s.on('data', (c: Buffer) => (out += c.toString('latin1')));
        s.on('close', () => resolve(out));
      }),
    );
    const bodies = [...text.matchAll(/\{"i":"(\d+)"\}/g)].map((m) => m[1]);
    expect(bodies).toEqual(Array.from({ length: count }, (_, i) => String(i)));
    // One upstream request at a time for the connection.
    expect(upstream.slow.max).toBe(1);
    await expectPoolWhole();
  });

  it(`cuts a connection that pipelines more than ${MAX_PIPELINED_WAITING} requests beyond the one being answered`, async () => {
    const before = await cut('pipeline_overflow');
    const opened = upstream.big.opened;
    nonReader(`GET /api/kb/big HTTP/1.1\r\nHost: a\r\n\r\n`.repeat(150));
    await eventually('connection cut', async () => (await cut('pipeline_overflow')) > before);
    expect((await cut('pipeline_overflow')) - before).toBe(1);
    // It started one upstream request at most, and that one ended with the connection.
    expect(upstream.big.opened - opened).toBeLessThanOrEqual(1);
    await eventually('upstream answers ended', () => upstream.big.closed === upstream.big.opened);
    await expectPoolWhole();
  });

  it('gives every slot back when clients pipeline requests for large answers, never read, and leave', async () => {
    const opened = upstream.big.opened;
    // Within the pipelining bound, on more connections than the pool holds.
    const sockets = Array.from({ length: 12 }, () => nonReader(`GET /api/kb/big HTTP/1.1\r\nHost: a\r\n\r\n`.repeat(MAX_PIPELINED_WAITING)));
    // The pool is taken: every slot holds an answer its client does not read.
    await eventually('pool taken', async () => upstream.big.opened - opened >= CONNECTIONS && (await slotsInUse()) === CONNECTIONS);
    for (const s of sockets) s.destroy();
    await eventually('upstream answers ended', () => upstream.big.closed === upstream.big.opened);
    await expectPoolWhole();
  });

  it('cuts a client that stops reading a large answer after the send timeout, cancelling the upstream request', async () => {
    const before = await cut('send_timeout');
    const opened = upstream.big.opened;
    // One request, the connection kept open and never read from.
    nonReader('GET /api/kb/big HTTP/1.1\r\nHost: a\r\n\r\n');
    await eventually('answer started', () => upstream.big.opened > opened);
    await eventually('send timeout', async () => (await cut('send_timeout')) > before);
    await eventually('upstream answer ended', () => upstream.big.closed === upstream.big.opened);
    await expectPoolWhole();
  });

  it('keeps a client that reads in bursts, with pauses shorter than the send timeout', async () => {
    const before = await cut('send_timeout');
    const received = await withGuard(
      'reader in bursts',
      new Promise<number>((resolve) => {
        let bytes = 0;
        const s = connect(port, '127.0.0.1', () => s.write('GET /api/kb/big HTTP/1.1\r\nHost: a\r\n\r\n'));
        s.on('data', (c: Buffer) => (bytes += c.length));
        // Reads for a moment every SEND_TIMEOUT_MS / 4. (The kernel takes an answer's bytes in steps of up to
        // half its send buffer, megabytes on loopback: a reader must drain that much within the timeout.)
        s.pause();
        const tick = setInterval(() => {
          s.resume();
          setTimeout(() => s.pause(), 10);
        }, SEND_TIMEOUT_MS / 4);
        setTimeout(() => {
          clearInterval(tick);
          s.destroy();
          resolve(bytes);
        }, SEND_TIMEOUT_MS * 5);
      }),
    );
    expect(received).toBeGreaterThan(1024 * 1024);
    expect(await cut('send_timeout')).toBe(before);
    await expectPoolWhole();
  });
});
