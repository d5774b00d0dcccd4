import { createServer, get, request, Server, ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { RunningService } from '@platform/testing';
import { startGatewayOver } from './gateway-over';

/**
 * Request bodies read ahead by the gateway (before they take an upstream connection) count
 * against one budget for all requests: past it a request waits with its body unread, and is
 * still served whole once there is room.
 */

const CONNECTIONS = 4;
const BUFFER = 1024;
/** Room for three requests' read-ahead (each reserves BUFFER + 1 bytes of a larger body). */
const BUDGET = 3 * (BUFFER + 1) + 10;
const BODY = 4096;
/** A hang guard only (a wedged gateway fails the test instead of stalling it), never a timing assertion. */
const HANG_GUARD_MS = 10_000;

function withGuard<T>(what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const guard = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`hung: ${what}`)), HANG_GUARD_MS)));
  return Promise.race([p, guard]).finally(() => clearTimeout(timer));
}

function eventually(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  return withGuard(
    what,
    (async () => {
      while (!(await check())) await new Promise((r) => setTimeout(r, 25));
    })(),
  );
}

describe('gateway: one budget for request bodies read ahead', () => {
  let upstream: Server;
  /** Answers the upstream holds back until the test lets them go. */
  const held: Array<() => void> = [];
  let gateway: RunningService;
  let port: number;

  beforeAll(async () => {
    upstream = createServer((req, res: ServerResponse) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => (bytes += c.length));
      req.on('end', () => {
        const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes }));
        if (req.url!.endsWith('/hold')) held.push(answer);
        else answer();
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    gateway = await startGatewayOver(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, {
      GATEWAY_UPSTREAM_CONNECTIONS: String(CONNECTIONS),
      GATEWAY_QUEUE_TIMEOUT_MS: '8000',
      GATEWAY_BODY_BUFFER_BYTES: String(BUFFER),
      GATEWAY_READ_AHEAD_BUDGET_BYTES: String(BUDGET),
    });
    port = Number(new URL(gateway.url).port);
  });

  afterAll(async () => {
    await gateway.stop();
    upstream.closeAllConnections();
    upstream.close();
  });

  async function metric(name: string): Promise<number> {
    const body = await withGuard(
      'metrics',
      new Promise<string>((resolve, reject) => {
        get({ host: '127.0.0.1', port, path: '/metrics', agent: false }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve(text));
        }).on('error', reject);
      }),
    );
    const line = body.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : NaN;
  }

  /** A POST that sends its body once told to continue; `continued` is set when the 100 arrives. */
  function post(path: string, bytes: number, state: { continued: boolean }): Promise<{ status: number; body: string }> {
    return withGuard(
      `POST ${path}`,
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { 'content-length': bytes, expect: '100-continue' } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.on('continue', () => {
          state.continued = true;
          req.end(Buffer.alloc(bytes, 'r'));
        });
        req.flushHeaders();
      }),
    );
  }

  it('makes a request wait unread (no 100 Continue) while the budget is spent, then serves every body whole', async () => {
    // Every upstream connection taken by an answer the upstream holds back.
    const first = Array.from({ length: CONNECTIONS }, () => post('/api/kb/hold', 10, { continued: false }));
    await eventually('pool taken', () => held.length === CONNECTIONS);
    // Six larger bodies: three fit the budget and are read ahead (then wait for a connection), three wait unread.
    const states = Array.from({ length: 6 }, () => ({ continued: false }));
    const rest = states.map((s) => post('/api/kb/ingest', BODY, s));
    await eventually('budget spent', async () => (await metric('gateway_read_ahead_waiting')) === 3);
    expect(await metric('gateway_read_ahead_bytes')).toBe(3 * (BUFFER + 1));
    expect(states.filter((s) => s.continued)).toHaveLength(3);
    // The upstream answers: connections free up, the read-ahead goes upstream, and the waiting bodies are read.
    while (held.length) held.shift()!();
    for (const answer of await Promise.all(first)) expect(answer).toEqual({ status: 200, body: '{"bytes":10}' });
    for (const answer of await Promise.all(rest)) expect(answer).toEqual({ status: 200, body: `{"bytes":${BODY}}` });
    expect(states.every((s) => s.continued)).toBe(true);
    expect(await metric('gateway_read_ahead_bytes')).toBe(0);
  });
});
