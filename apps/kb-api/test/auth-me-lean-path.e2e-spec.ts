import { IncomingHttpHeaders, request } from 'node:http';
import { RunningService } from '@platform/testing';
import type { Express } from 'express';
import { DataSource } from 'typeorm';
import { callerWith, sessionOf } from './admin-support';
import { startKb } from './kb-test-env';

/** The headers of a /api/auth/me answer a client or a cache acts on. */
const HEADERS_THAT_MATTER = ['content-type', 'content-length', 'cache-control', 'etag', 'vary', 'www-authenticate', 'set-cookie', 'x-powered-by'];

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
}

/** A GET over node:http: the path is sent as given and nothing is added to the request's headers. */
function get(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * GET /api/auth/me is one controller method: personal access tokens take the lean request path,
 * everything else (a session cookie, a guest, any query string) reaches the same method through
 * Express and Nest. Whichever way, the caller gets the same answer.
 */
describe('kb-api: /api/auth/me answers the same on the lean path and the Nest route', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let credentials: Record<'personal access token' | 'session cookie' | 'guest', Record<string, string>>;
  let viaExpress: jest.SpyInstance;

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    const caller = await callerWith(svc.url, db, { email: 'me-paths@example.com', roles: ['editor'] });
    const session = await sessionOf(svc.url, caller);
    credentials = {
      'personal access token': { authorization: `Bearer ${caller.token}` },
      'session cookie': { cookie: `kb_session=${session.cookie('kb_session')}` },
      guest: {},
    };
    // Express's entry point (its request listener calls app.handle): requests the lean path took never reach it.
    viaExpress = jest.spyOn(svc.app.getHttpAdapter().getInstance() as Express & { handle: (...args: unknown[]) => void }, 'handle');
  });
  afterAll(async () => {
    viaExpress.mockRestore();
    await stop();
  });

  /** One request, and whether Express routed it. */
  const me = async (path: string, headers: Record<string, string>): Promise<{ answer: Answer; viaExpress: boolean }> => {
    viaExpress.mockClear();
    const r = await get(svc.url, path, { accept: 'application/json', ...headers });
    const kept = Object.fromEntries(HEADERS_THAT_MATTER.filter((h) => r.headers[h] !== undefined).map((h) => [h, r.headers[h]]));
    return { answer: { status: r.status, headers: kept, body: r.text ? JSON.parse(r.text) : null }, viaExpress: viaExpress.mock.calls.length > 0 };
  };

  it.each([
    ['personal access token', 200, 'the lean path'],
    ['session cookie', 200, 'the Nest route'],
    ['guest', 401, 'the Nest route'],
  ] as const)('%s: %s through %s, and the same with a query string through the Nest route', async (kind, status, path) => {
    const plain = await me('/api/auth/me', credentials[kind]);
    expect(plain.answer.status).toBe(status);
    // Only a personal access token without a query string takes the lean path.
    expect(plain.viaExpress).toBe(path === 'the Nest route');
    for (const query of ['?via=nest', '?', '?tenant=ignored&x=1']) {
      const queried = await me(`/api/auth/me${query}`, credentials[kind]);
      expect(queried.viaExpress).toBe(true);
      expect([query, queried.answer]).toEqual([query, plain.answer]);
    }
  });

  it('gives a token and a session of the same user the same profile, with the headers a cache needs', async () => {
    const token = (await me('/api/auth/me', credentials['personal access token'])).answer;
    const session = (await me('/api/auth/me', credentials['session cookie'])).answer;
    expect(token.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(token.headers['etag']).toEqual(expect.stringMatching(/^W\/"/));
    const { auth: tokenAuth, ...tokenProfile } = token.body as Record<string, unknown>;
    const { auth: sessionAuth, ...sessionProfile } = session.body as Record<string, unknown>;
    expect(tokenProfile).toEqual(sessionProfile);
    expect(tokenProfile).toMatchObject({ tenant_id: 'default', roles: ['editor'] });
    expect([tokenAuth, sessionAuth]).toEqual([expect.objectContaining({ kind: 'token' }), expect.objectContaining({ kind: 'session' })]);
  });

  it('answers a guest 401 in the area shape on both paths', async () => {
    const guest = await me('/api/auth/me?via=nest', {});
    expect(guest.answer).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
    const forged = await me('/api/auth/me', { authorization: 'Bearer kbp_notarealtokenatallxxxxxxxxxxxxxxx' });
    expect(forged.viaExpress).toBe(false);
    expect(forged.answer).toEqual((await me('/api/auth/me?via=nest', { authorization: 'Bearer kbp_notarealtokenatallxxxxxxxxxxxxxxx' })).answer);
    expect(forged.answer.status).toBe(401);
  });
});
