import { callerWith, Caller } from './admin-support';
import { startKb } from './kb-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The text's `~` as a byte no UTF-8 text holds. */
const withInvalidByte = (text: string) => Buffer.from(text).map((b) => (b === 0x7e ? 0xff : b));
const deep = (n: number) => `{"email":${'['.repeat(n)}${']'.repeat(n)}}`;

/** What no route can use is refused at the edge in the knowledge base's error shape, never a 5xx. */
describe('kb-api: edge hygiene', () => {
  let kb: Awaited<ReturnType<typeof startKb>>;
  let admin: Caller;

  beforeAll(async () => {
    kb = await startKb();
    admin = await callerWith(kb.svc.url, kb.db, { email: 'admin@edge.test', roles: ['admin'] });
  });

  afterAll(() => kb.stop());

  const call = async (method: string, path: string, body?: string | Uint8Array, options: { type?: string; token?: string } = {}) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = options.type ?? 'application/json';
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    const r = await fetch(`${kb.svc.url}${path}`, { method, headers, body });
    expect(r.headers.get('content-type')).toContain('application/json');
    return { status: r.status, body: (await r.json()) as Json };
  };

  it.each([
    ['NUL in a JSON string (unauthenticated)', 'POST', '/api/auth/token', '{"email":"a\\u0000@x.test","password":"p"}', 'body.email', 'NUL'],
    ['invalid UTF-8 bytes in a JSON string (unauthenticated)', 'POST', '/api/auth/login', withInvalidByte('{"email":"a~@x.test","password":"p"}'), 'body.email', 'UTF-8'],
    ['JSON nested 5,000 levels on /api/auth/token', 'POST', '/api/auth/token', deep(5000), 'body', 'levels'],
    ['JSON nested 5,000 levels on forgot-password', 'POST', '/api/auth/forgot-password', deep(5000), 'body', 'levels'],
    ['NUL in a query parameter', 'GET', '/api/admin/users?search=a%00', undefined, 'query.search', 'NUL'],
    ['invalid UTF-8 in a path parameter', 'GET', '/api/admin/users/%FF', undefined, 'path.user', 'UTF-8'],
    ['a page of 1e20', 'GET', '/api/admin/users?page=1e20', undefined, 'page', 'greater than'],
    ['a page of 20 digits', 'GET', '/api/admin/users?page=99999999999999999999', undefined, 'page', 'greater than'],
    ['a page of -1', 'GET', '/api/admin/users?page=-1', undefined, 'page', 'at least'],
    ['a page of NaN', 'GET', '/api/admin/users?page=NaN', undefined, 'page', 'integer'],
    ['an id of 1e20 in a JSON body', 'POST', '/api/kb/chat', '{"question":"q","doc_ids":[1e20]}', 'body.doc_ids.0', '2^53'],
  ])('answers 422 naming the field for %s', async (_name, method, path, body, field, word) => {
    const r = await call(method, path, body, { token: admin.token });
    expect(r.status).toBe(422);
    expect(r.body['errors'][field]).toEqual(expect.arrayContaining([expect.stringContaining(word)]));
    expect(typeof r.body['message']).toBe('string');
  });

  it('answers a body over 16 KiB on the credential routes 413, and keeps the large limit elsewhere', async () => {
    const big = JSON.stringify({ email: 'a@x.test', password: 'x'.repeat(20 * 1024) });
    for (const path of ['/api/auth/login', '/api/auth/token', '/api/auth/forgot-password']) {
      const r = await call('POST', path, big);
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ message: 'Payload too large.' });
    }
    const chat = await call('POST', '/api/kb/chat', JSON.stringify({ question: 'x'.repeat(20 * 1024) }), { token: admin.token });
    expect(chat.status).toBe(422); // over the question's 10,000 characters, not over a body limit
  });

  it('answers malformed JSON 400 and charset=latin1 415 in the error shape', async () => {
    const malformed = await call('POST', '/api/auth/token', '{"email":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Bad request.' });
    const latin1 = await call('POST', '/api/auth/token', '{"email":"a@x.test"}', { type: 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
    expect(typeof latin1.body['message']).toBe('string');
  });
});
