import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RunningService, startServiceForTest } from '@platform/testing';
import { mountProxy } from '../src/app/proxy/mount-proxy';

/** An upstream with widget routes and a page with its own Content-Security-Policy. */
async function startUpstream(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    // The widget API decides CORS itself: it allows only the origins its widget key lists.
    if (req.url?.startsWith('/api/widget/')) {
      const cors = req.headers.origin === 'https://shop.example' ? { 'access-control-allow-origin': 'https://shop.example' } : {};
      return void res.writeHead(req.method === 'OPTIONS' ? 204 : 200, { ...cors, 'x-upstream': 'widget' }).end();
    }
    if (req.url === '/login') return void res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "default-src 'none'; style-src 'self'" }).end('<p>login</p>');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('gateway edge: security headers and CORS', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: RunningService;

  beforeAll(async () => {
    upstream = await startUpstream();
    gateway = await startServiceForTest({
      service: 'gateway',
      loadAppModule: async () => (await import('../src/app.module')).AppModule,
      httpOptions: { configure: mountProxy },
      env: {
        UPSTREAM_IAM_URL: upstream.url,
        UPSTREAM_KB_URL: upstream.url,
        UPSTREAM_GUARDRAILS_URL: 'http://127.0.0.1:9',
        UPSTREAM_EVIDENCE_URL: 'http://127.0.0.1:9',
        GATEWAY_CORS_ORIGINS: 'https://app.example.com, http://127.0.0.1:5173',
        GATEWAY_HSTS: 'true',
        GATEWAY_UPSTREAM_TIMEOUT_MS: '500',
      },
    });
  });

  afterAll(async () => {
    await gateway.stop();
    upstream.server.close();
  });

  it('puts security headers on proxied, failed and local answers, keeping an upstream\'s own policy', async () => {
    for (const path of ['/api/kb/anything', '/guardrails/api/overview', '/health/live', '/nowhere']) {
      const r = await fetch(gateway.url + path);
      expect([path, r.headers.get('x-content-type-options')]).toEqual([path, 'nosniff']);
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('referrer-policy')).toBe('no-referrer');
      expect(r.headers.get('strict-transport-security')).toMatch(/max-age=/);
      expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    const login = await fetch(`${gateway.url}/login`);
    expect(login.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'self'");
  });

  it('answers preflights for allowed origins only, and marks their answers', async () => {
    const allowed = await fetch(`${gateway.url}/api/kb/chat`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
    const denied = await fetch(`${gateway.url}/api/kb/chat`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(denied.headers.get('access-control-allow-origin')).toBeNull();

    const call = await fetch(`${gateway.url}/api/kb/thing`, { headers: { origin: 'http://127.0.0.1:5173' } });
    expect(call.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
    expect(call.headers.get('access-control-expose-headers')).toContain('x-request-id');
    const other = await fetch(`${gateway.url}/api/kb/thing`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets a browser OAuth client of an allowed origin send DPoP proofs and read the challenge and nonce', async () => {
    const preflight = await fetch(`${gateway.url}/mcp/kb`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, dpop, mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    const allowed = preflight.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'dpop', 'mcp-protocol-version']));
    const call = await fetch(`${gateway.url}/oauth/token`, { method: 'POST', headers: { origin: 'https://app.example.com' } });
    expect(call.headers.get('access-control-expose-headers')!.split(', ')).toEqual(expect.arrayContaining(['www-authenticate', 'dpop-nonce']));
  });

  it('leaves the widget\'s CORS to kb-api, which checks origins per widget key', async () => {
    const preflight = await fetch(`${gateway.url}/api/widget/setup`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
    expect([preflight.status, preflight.headers.get('x-upstream'), preflight.headers.get('access-control-allow-origin')]).toEqual([204, 'widget', 'https://shop.example']);
    // An origin the gateway allows for the SPA gets nothing from the gateway on widget routes.
    const spa = await fetch(`${gateway.url}/api/widget/setup`, { headers: { origin: 'https://app.example.com' } });
    expect([spa.headers.get('x-upstream'), spa.headers.get('access-control-allow-origin')]).toEqual(['widget', null]);
    expect(spa.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
