import { createServer, IncomingMessage, request, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunningService, startServiceForTest } from '@platform/testing';
import { mountProxy } from '../src/app/proxy/mount-proxy';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real upstream on 127.0.0.1 that echoes what it received, streams, or stalls on demand. */
async function startUpstream(name: string): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url === '/health/live' || req.url === '/health/ready') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(`{"status":"ok","who":"${name}"}`);
      } else if (req.url?.endsWith('/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        setTimeout(() => res.end('data: last\n\n'), 300);
      } else if (req.url?.endsWith('/slow')) {
        setTimeout(() => res.writeHead(200).end('late'), 2000);
      } else {
        res.writeHead(201, { 'content-type': 'application/json', 'x-upstream': name, connection: 'keep-alive' });
        res.end(JSON.stringify({ upstream: name, method: req.method, url: req.url, body }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const loadAppModule = async () => (await import('../src/app.module')).AppModule;

describe('gateway', () => {
  let iam: Awaited<ReturnType<typeof startUpstream>>;
  let kb: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: RunningService;

  beforeAll(async () => {
    iam = await startUpstream('iam');
    kb = await startUpstream('kb');
    gateway = await startServiceForTest({
      service: 'gateway',
      loadAppModule,
      httpOptions: { configure: mountProxy },
      env: {
        UPSTREAM_IAM_URL: iam.url,
        UPSTREAM_KB_URL: kb.url,
        // Nothing listens on port 9 (discard) locally: a refused connection.
        UPSTREAM_GUARDRAILS_URL: 'http://127.0.0.1:9',
        UPSTREAM_EVIDENCE_URL: kb.url,
        GATEWAY_UPSTREAM_TIMEOUT_MS: '500',
      },
    });
  });

  afterAll(async () => {
    await gateway.stop();
    iam.server.close();
    kb.server.close();
  });

  it('routes by prefix and keeps method, path, query, headers and body', async () => {
    const r = await fetch(`${gateway.url}/oauth/token?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Basic abc', 'x-custom': 'kept' },
      body: 'grant_type=client_credentials&scope=a+b',
    });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-upstream')).toBe('iam');
    expect(await r.json()).toEqual({ upstream: 'iam', method: 'POST', url: '/oauth/token?x=1', body: 'grant_type=client_credentials&scope=a+b' });
    const seen = iam.seen.at(-1)!;
    expect(seen.headers['authorization']).toBe('Basic abc');
    expect(seen.headers['x-custom']).toBe('kept');
    expect(seen.headers['x-forwarded-proto']).toBe('http');
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['x-request-id']).toBe(r.headers.get('x-request-id'));
  });

  it('forwards the client it saw, not the X-Forwarded-For or -Proto a client wrote (no trusted proxy configured)', async () => {
    for (const claimed of ['203.0.113.9', '203.0.113.10, 198.51.100.1', 'not-an-address']) {
      await fetch(`${gateway.url}/oauth/token`, { method: 'POST', headers: { 'x-forwarded-for': claimed, 'x-forwarded-proto': 'https' }, body: 'grant_type=x' });
      const seen = iam.seen.at(-1)!;
      expect([claimed, seen.headers['x-forwarded-for'], seen.headers['x-forwarded-proto']]).toEqual([claimed, '127.0.0.1', 'http']);
    }
  });

  it('keeps a caller-supplied request id end to end', async () => {
    const r = await fetch(`${gateway.url}/api/kb/documents/search?q=a`, { headers: { 'x-request-id': 'trace-77' } });
    expect(r.headers.get('x-request-id')).toBe('trace-77');
    expect(kb.seen.at(-1)!.headers['x-request-id']).toBe('trace-77');
  });

  it('passes large bodies through intact', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024);
    const r = await fetch(`${gateway.url}/api/kb/ingest`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: big });
    expect(r.status).toBe(201);
    expect(kb.seen.at(-1)!.body.length).toBe(big.length);
  });

  it('streams responses without buffering them', async () => {
    const r = await fetch(`${gateway.url}/api/kb/chat/stream`);
    const reader = r.body!.getReader();
    const started = Date.now();
    const first = await reader.read();
    const firstAfter = Date.now() - started;
    expect(new TextDecoder().decode(first.value)).toContain('data: first');
    // The first event arrives before the upstream finishes (it ends 300 ms later).
    expect(firstAfter).toBeLessThan(250);
    let rest = '';
    for (let c = await reader.read(); !c.done; c = await reader.read()) rest += new TextDecoder().decode(c.value);
    expect(rest).toContain('data: last');
  });

  it('does not forward hop-by-hop headers', async () => {
    // fetch refuses to send Connection headers, so use node:http directly.
    await new Promise<void>((resolve, reject) => {
      const req = request(`${gateway.url}/api/kb/x`, { headers: { 'x-drop-me': '1', connection: 'x-drop-me', te: 'trailers' } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
    const seen = kb.seen.at(-1)!.headers;
    expect(seen['x-drop-me']).toBeUndefined();
    expect(seen['te']).toBeUndefined();
  });

  it('answers JSON 502 when an upstream is down and 504 when it is too slow', async () => {
    const down = await fetch(`${gateway.url}/guardrails/api/overview`);
    expect(down.status).toBe(502);
    expect(down.headers.get('content-type')).toContain('application/problem+json');
    expect(await down.json()).toMatchObject({ status: 502, code: 'upstream_unavailable' });
    const slow = await fetch(`${gateway.url}/api/kb/slow`);
    expect(slow.status).toBe(504);
    expect(await slow.json()).toMatchObject({ status: 504, code: 'upstream_timeout' });
  });

  it('leaves unrouted paths to its own 404', async () => {
    const r = await fetch(`${gateway.url}/nowhere`);
    expect(r.status).toBe(404);
    expect(await r.json()).toMatchObject({ code: 'not_found' });
  });

  it('reports every upstream on /health/ready without going red for one that is down', async () => {
    const r = await fetch(`${gateway.url}/health/ready`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as { checks: Record<string, { status: string }> };
    expect(body.checks['upstream:iam'].status).toBe('up');
    expect(body.checks['upstream:kb'].status).toBe('up');
    expect(body.checks['upstream:guardrails'].status).toBe('down');
  });

  it('names upstreams on its public /metrics and /health/ready, never their addresses', async () => {
    expect((await fetch(`${gateway.url}/api/kb/x`)).status).toBe(201);
    expect((await fetch(`${gateway.url}/guardrails/api/overview`)).status).toBe(502);
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    const lines = metrics.split('\n').filter((l) => l.startsWith('gateway_upstream_requests_total{'));
    expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^gateway_upstream_requests_total\{upstream="kb",outcome="2xx"[,}].* [1-9]/), expect.stringMatching(/\{upstream="guardrails",outcome="error"[,}]/)]));
    const ready = await (await fetch(`${gateway.url}/health/ready`)).text();
    for (const body of [metrics, ready]) {
      for (const address of [kb.url, iam.url, new URL(kb.url).host, '127.0.0.1:9']) expect(body).not.toContain(address);
    }
    expect(JSON.parse(ready)).toMatchObject({ checks: { 'upstream:guardrails': { status: 'down', error: 'ECONNREFUSED' } } });
  });

  it("reaches a service's own health through /health/<service>/ready", async () => {
    const r = await fetch(`${gateway.url}/health/iam/ready`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ok', who: 'iam' });
    expect((await fetch(`${gateway.url}/health/guardrails/ready`)).status).toBe(502);
  });
});
