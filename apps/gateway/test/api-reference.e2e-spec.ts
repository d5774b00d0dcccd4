import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium, requireChromium, RunningService, startServiceForTest } from '@platform/testing';
import type { Browser } from 'playwright-core';
import { mountProxy } from '../src/app/proxy/mount-proxy';

requireChromium();

/** A document shaped like the services' generated ones: full paths, a bearer scheme, no servers. */
const KB_OPENAPI = {
  openapi: '3.1.0',
  info: { title: 'Knowledge base API', version: '1.0.0', description: 'Grounded chat <b>and</b> documents.' },
  paths: {
    '/api/kb/chat': { post: { operationId: 'Chat_ask', summary: 'Ask a grounded question', responses: { '200': { description: 'The answer' } } } },
    '/api/auth/me': {
      get: {
        operationId: 'Auth_me',
        summary: 'The caller',
        responses: { '200': { description: 'The caller', content: { 'application/json': { schema: { type: 'object', properties: { tenant_id: { type: 'string' } } } } } } },
      },
    },
  },
  components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  security: [{ bearer: [] }],
};

/** An upstream standing in for kb-api: serves the document and records what reaches /api/auth/me. */
async function startUpstream() {
  const calls: IncomingHttpHeaders[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url === '/api/kb/openapi.json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(KB_OPENAPI));
    if (req.url === '/api/auth/me') {
      calls.push(req.headers);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"tenant_id":"default"}');
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, calls, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('gateway API reference (/docs)', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: RunningService;
  let browser: Browser | undefined;

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
        GATEWAY_UPSTREAM_TIMEOUT_MS: '500',
      },
    });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway.stop();
    upstream.server.close();
  });

  it('indexes every service, escaping what documents say, and marks a switched-off API unavailable', async () => {
    const page = await fetch(`${gateway.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:/);
    const html = await page.text();
    expect(html).toContain('Knowledge base API');
    expect(html).toContain('<code>/api/kb/chat</code>');
    expect(html).not.toContain('//api/');
    expect(html).toContain('Ask a grounded question');
    expect(html).toContain('Grounded chat &#60;b&#62;and&#60;/b&#62; documents.');
    expect(html).toMatch(/guardrails-admin<\/h2><p class="off">Not available/);
    // Every script the page loads comes from this gateway.
    expect([...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1])).toEqual([
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui-standalone-preset.js',
      '/docs/reference.js',
    ]);
  });

  it('serves each document and the Swagger UI assets of the installed package, nothing else', async () => {
    expect(await (await fetch(`${gateway.url}/docs/openapi/kb-api.json`)).json()).toEqual(KB_OPENAPI);
    expect((await fetch(`${gateway.url}/docs/openapi/evidence-review.json`)).status).toBe(404);
    expect((await fetch(`${gateway.url}/docs/openapi/nope.json`)).status).toBe(404);
    const bundle = await fetch(`${gateway.url}/docs/assets/swagger-ui-bundle.js`);
    expect([bundle.status, bundle.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    for (const name of ['package.json', '..%2Fpackage.json', 'index.html', 'swagger-initializer.js']) {
      expect([name, (await fetch(`${gateway.url}/docs/assets/${name}`)).status]).toEqual([name, 404]);
    }
    expect((await fetch(`${gateway.url}/docs/docs.css`)).headers.get('content-type')).toContain('text/css');
  });

  it('renders the documents in a browser and tries an operation with a bearer token through the gateway', async () => {
    browser = await launchChromium();
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text());
    });
    await page.goto(`${gateway.url}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
    const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.textContent?.replace(/\u200b/g, '')));
    expect(paths).toEqual(expect.arrayContaining(['/api/kb/chat', '/api/auth/me']));

    await page.click('button.authorize');
    await page.fill('.auth-container input', 'token-from-the-test');
    await page.click('.auth-btn-wrapper button.authorize');
    await page.click('.btn-done');

    await page.click('#operations-Auth-Auth_me .opblock-summary, #operations-default-Auth_me .opblock-summary');
    await page.click('.try-out__btn');
    await page.click('.execute');
    await page.waitForSelector('.live-responses-table .response-col_status', { timeout: 15_000 });
    expect(upstream.calls.at(-1)?.authorization).toBe('Bearer token-from-the-test');
    expect(violations.filter((v) => /Content Security Policy/i.test(v))).toEqual([]);
  });
});
