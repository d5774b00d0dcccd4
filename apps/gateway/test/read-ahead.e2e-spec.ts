import { createServer, get, request, Server, ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { RunningService } from '@platform/testing';
import { startGatewayOver } from './gateway-over';
import { eventually, withGuard } from './hang-guard';

/**
 * Request bodies read ahead by the gateway (before they take an upstream connection) count
 * against one budget for all requests: a body that does not fit is answered 503 at once, and
 * those within it are still served whole.
 */

const CONNECTIONS = 4;
const BUFFER = 1024;
/** Room for three requests' read-ahead (each reserves BUFFER + 1 bytes of a larger body). */
const BUDGET = 3 * (BUFFER + 1) + 10;
const BODY = 4096;
/** A hang guard only (a wedged gateway fails the test instead of stalling it), never a timing assertion. */



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

  type Answer = { status: number; body: string; retryAfter?: string };

  /** A POST that sends its body at once. */
  function send(path: string, bytes: number): Promise<Answer> {
    return withGuard(
      `POST ${path}`,
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { 'content-length': bytes } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body, retryAfter: res.headers['retry-after'] }));
        });
        req.on('error', reject);
        req.end(Buffer.alloc(bytes, 's'));
      }),
    );
  }

  /** A POST that sends its body once told to continue; `continued` is set when the 100 arrives. */
  function post(path: string, bytes: number, state: { continued: boolean }): Promise<Answer> {
    return withGuard(
      `POST ${path}`,
      new Promise((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { 'content-length': bytes, expect: '100-continue' } }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body, retryAfter: res.headers['retry-after'] }));
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

  it('answers 503 at once to a body the budget cannot hold, and serves those it holds whole', async () => {
    // Every upstream connection taken by an answer the upstream holds back.
    const first = Array.from({ length: CONNECTIONS }, () => post('/api/kb/hold', 10, { continued: false }));
    await eventually('pool taken', () => held.length === CONNECTIONS);
    // Three larger bodies fill the budget: read ahead, they wait for a connection.
    const states = Array.from({ length: 3 }, () => ({ continued: false }));
    const within = states.map((s) => post('/api/kb/ingest', BODY, s));
    await eventually('budget spent', async () => (await metric('gateway_read_ahead_bytes')) === 3 * (BUFFER + 1));
    // One more is refused at once, whether it waits for 100 Continue (it gets none) or sends its body straight away.
    const refused = { continued: false };
    const busy = await post('/api/kb/ingest', BODY, refused);
    expect(refused.continued).toBe(false);
    const sent = await send('/api/kb/ingest', BODY);
    for (const answer of [busy, sent]) {
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 503, code: 'gateway_busy' });
      expect(answer.retryAfter).toBe('1');
    }
    // A small body (a sign-in, a token request) is not turned away by a spent budget: it waits for a connection.
    const small = send('/api/kb/ingest', 100);
    await new Promise((r) => setTimeout(r, 200));
    // The upstream answers: connections free up and the bodies read ahead go upstream whole.
    while (held.length) held.shift()!();
    for (const answer of await Promise.all(first)) expect(answer).toMatchObject({ status: 200, body: '{"bytes":10}' });
    for (const answer of await Promise.all(within)) expect(answer).toMatchObject({ status: 200, body: `{"bytes":${BODY}}` });
    expect(await small).toMatchObject({ status: 200, body: '{"bytes":100}' });
    expect(states.every((s) => s.continued)).toBe(true);
    await eventually('budget free', async () => (await metric('gateway_read_ahead_bytes')) === 0);
    expect(await send('/api/kb/ingest', BODY)).toMatchObject({ status: 200, body: `{"bytes":${BODY}}` });
  });
});
