import { rawHttp, RunningService } from '@platform/testing';
import { startIam } from './iam-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FORM = 'application/x-www-form-urlencoded';

/** What no route can use is refused at the edge: RFC 6749's shape under /oauth, problem+json elsewhere. */
describe('iam: edge hygiene', () => {
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startIam();
  });

  afterAll(() => svc.stop());

  const call = async (method: string, path: string, body?: string | Uint8Array, contentType = FORM) => {
    const r = await fetch(`${svc.url}${path}`, { method, headers: body === undefined ? {} : { 'content-type': contentType }, body, redirect: 'manual' });
    return { status: r.status, type: r.headers.get('content-type') ?? '', body: (await r.json()) as Json };
  };

  it.each([
    ['NUL in a form field (lean token route)', 'POST', '/oauth/token', 'grant_type=client_credentials&client_id=a%00b', FORM, 'body.client_id'],
    ['invalid UTF-8 in a form field (lean token route)', 'POST', '/oauth/token', 'grant_type=%FF', FORM, 'body.grant_type'],
    ['NUL in a JSON string (Nest token route)', 'POST', '/oauth/token', '{"grant_type":"a\\u0000"}', 'application/json', 'body.grant_type'],
    ['a lone surrogate in a JSON string (Nest token route)', 'POST', '/oauth/token', '{"grant_type":"a\\ud800"}', 'application/json', 'body.grant_type'],
    ['a lone surrogate in a nested JSON value', 'POST', '/oauth/revoke', '{"token":"x","extra":{"list":["ok","\\udc00"]}}', 'application/json', 'body.extra.list.1'],
    ['JSON nested 5,000 levels', 'POST', '/oauth/revoke', `{"token":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'application/json', 'body'],
    ['NUL in a query parameter', 'GET', '/oauth/authorize?client_id=demo%00&response_type=code', undefined, FORM, 'query.client_id'],
    ['invalid UTF-8 in a query parameter', 'GET', '/oauth/authorize?state=%C3', undefined, FORM, 'query.state'],
  ])('answers 400 invalid_request naming the field for %s', async (_name, method, path, body, type, field) => {
    const r = await call(method, path, body, type);
    expect(r.status).toBe(400);
    expect(r.type).toContain('application/json');
    expect(r.body).toEqual({ error: 'invalid_request', error_description: expect.stringContaining(`${field}:`) });
  });

  it('answers a body over 16 KiB on /oauth/token 413 in the OAuth shape, on both request paths', async () => {
    const big = `grant_type=client_credentials&scope=${'x'.repeat(20 * 1024)}`;
    for (const [body, type] of [[big, FORM], [JSON.stringify({ scope: big }), 'application/json']]) {
      const r = await call('POST', '/oauth/token', body, type);
      expect(r.status).toBe(413);
      expect(r.body).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('answers malformed JSON and charset=latin1 on /oauth/token in the OAuth shape', async () => {
    const malformed = await call('POST', '/oauth/token', '{"grant_type":', 'application/json');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'invalid_request' });
    const latin1 = await call('POST', '/oauth/token', 'grant_type=client_credentials', `${FORM}; charset=latin1`);
    expect(latin1.status).toBe(415);
    expect(latin1.body).toMatchObject({ error: 'invalid_request' });
  });

  it('answers outside /oauth with problem+json 422 naming the field', async () => {
    const query = await call('GET', '/.well-known/jwks.json?x=%FF');
    expect(query.status).toBe(422);
    expect(query.type).toContain('application/problem+json');
    expect(query.body).toMatchObject({ status: 422, code: 'validation_failed', errors: [{ field: 'query.x', message: expect.stringContaining('UTF-8') }] });
    const login = await call('POST', '/login', `email=a%00b&password=x`);
    expect(login.status).toBe(422);
    expect(login.body['errors'][0]).toMatchObject({ field: 'body.email' });
    const big = await call('POST', '/login', `email=a&password=${'x'.repeat(20 * 1024)}`);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('answers a NUL in a header (refused by Node before the app) with a JSON 400 and closes the connection', async () => {
    const r = await rawHttp(svc.url, 'POST /oauth/token HTTP/1.1\r\nHost: x\r\nAuthorization: Basic a\0\r\nContent-Length: 0\r\n\r\n');
    expect(r.status).toBe(400);
    expect(r.headers['connection']).toBe('close');
    expect(JSON.parse(r.body)).toEqual({ error: 'bad_request', message: expect.stringContaining('not well-formed HTTP') });
  });

  it('answers bytes that are not UTF-8 in Idempotency-Key 400 invalid_request under /oauth and 422 elsewhere, naming the header', async () => {
    const oauth = await rawHttp(svc.url, 'GET /oauth/authorize HTTP/1.1\r\nHost: x\r\nIdempotency-Key: \xc3(\r\nConnection: close\r\n\r\n');
    expect(oauth.status).toBe(400);
    expect(JSON.parse(oauth.body)).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('header.idempotency-key:') });
    const elsewhere = await rawHttp(svc.url, 'GET /api/iam/apps HTTP/1.1\r\nHost: x\r\nIdempotency-Key: \xc3(\r\nConnection: close\r\n\r\n');
    expect(elsewhere.status).toBe(422);
    expect(JSON.parse(elsewhere.body)).toMatchObject({ code: 'validation_failed', errors: [{ field: 'header.idempotency-key', message: 'must be valid UTF-8' }] });
  });

  it("names a problem's instance by its path alone, never echoing the query and the credentials it may carry", async () => {
    const token = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJzZWNyZXQtdG9rZW4tbWFya2VyIn0.c2ln';
    const unauthorized = await fetch(`${svc.url}/api/iam/v1/applications/x/client?access_token=${token}&b=1`);
    expect(unauthorized.status).toBe(401);
    const text = await unauthorized.text();
    expect(text).not.toContain(token);
    expect(JSON.parse(text)).toMatchObject({ status: 401, instance: '/api/iam/v1/applications/x/client' });
    const notFound = await call('GET', '/api/iam/nowhere?client_secret=s3cr3t-value');
    expect(notFound.status).toBe(404);
    expect(notFound.body['instance']).toBe('/api/iam/nowhere');
    const refused = await call('GET', '/.well-known/jwks.json?access_token=abc&x=%FF');
    expect(refused.status).toBe(422);
    expect(refused.body['instance']).toBe('/.well-known/jwks.json');
  });
});
