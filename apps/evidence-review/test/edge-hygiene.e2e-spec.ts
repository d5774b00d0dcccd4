import { rawHttp, RunningService, TestJwksIssuer } from '@platform/testing';
import { startEvidenceWithIssuer } from './evidence-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const review = (answer: string) =>
  `{"artifact":{"artifact_id":"edge","answer_text":"${answer}","claims":[{"id":"c1","text":"It works.","source_ids":["s1"]}],"sources":[{"id":"s1","url":"https://doi.org/10.1000/1"}]}}`;
/** The text's `~` as a byte no UTF-8 text holds. */
const withInvalidByte = (text: string) => Buffer.from(text).map((b) => (b === 0x7e ? 0xff : b));
const deep = (n: number) => `{"artifact":${'['.repeat(n)}${']'.repeat(n)}}`;

/** What no route can use is refused at the edge in the area's error shape, never a 5xx. */
describe('evidence-review: edge hygiene', () => {
  let issuer: TestJwksIssuer;
  let svc: RunningService;
  let stop: () => Promise<void>;
  let token: string;

  beforeAll(async () => {
    ({ issuer, svc, stop } = await startEvidenceWithIssuer({ EVIDENCE_API_ENABLED: 'true', EVIDENCE_MAX_BODY_BYTES: '20000' }));
    token = await issuer.mint({ scope: 'evidence:review', extra: { tenant_id: 'edge' } });
  });

  afterAll(() => stop());

  const call = async (method: string, path: string, body?: string | Uint8Array, contentType = 'application/json') => {
    const r = await fetch(`${svc.url}/evidence-risk-review${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
      body,
    });
    expect(r.headers.get('content-type')).toContain('application/json');
    return { status: r.status, body: (await r.json()) as Json };
  };

  it.each([
    ['NUL in a query parameter', 'GET', '/reviews?artifact_id=a%00b', undefined, 'query.artifact_id', 'NUL'],
    ['invalid UTF-8 in a query parameter', 'GET', '/reviews?profile=%FF', undefined, 'query.profile', 'UTF-8'],
    ['NUL in a path parameter', 'GET', '/reviews/r%00', undefined, 'path.id', 'NUL'],
    ['invalid UTF-8 in a path parameter', 'GET', '/profiles/%C3', undefined, 'path.key', 'UTF-8'],
    ['a page of 20 digits', 'GET', '/reviews?page=99999999999999999999', undefined, 'query.page', 'at most'],
    ['NUL in a JSON string (lean route)', 'POST', '/reviews', review('a\\u0000b'), 'body.artifact.answer_text', 'NUL'],
    ['invalid UTF-8 bytes in a JSON string (lean route)', 'POST', '/reviews', withInvalidByte(review('a~b')), 'body.artifact.answer_text', 'UTF-8'],
    ['JSON nested 5,000 levels (lean route)', 'POST', '/reviews', deep(5000), 'body', 'levels'],
    ['an integer of 1e20', 'POST', '/reviews', '{"artifact":{"artifact_id":1e20}}', 'body.artifact.artifact_id', '2^53'],
  ])('answers 422 validation_error for %s', async (_name, method, path, body, field, word) => {
    const r = await call(method, path, body);
    expect(r.status).toBe(422);
    expect(r.body['error']).toMatchObject({ code: 'validation_error' });
    expect(r.body['error']['details'][0]).toEqual({ path: expect.stringContaining(field), message: expect.stringContaining(word) });
  });

  it('answers an oversized body 413 payload_too_large on both request paths', async () => {
    const big = review('x'.repeat(30_000));
    for (const type of ['application/json', 'application/json; charset=utf-8']) {
      const r = await call('POST', '/reviews', big, type);
      expect(r.status).toBe(413);
      expect(r.body['error']).toMatchObject({ code: 'payload_too_large' });
    }
  });

  it('answers malformed JSON 400 and an unsupported charset 415, in the error shape', async () => {
    const malformed = await call('POST', '/reviews', '{"artifact":');
    expect(malformed.status).toBe(400);
    expect(malformed.body['error']).toMatchObject({ code: 'bad_request' });
    const latin1 = await call('POST', '/reviews', review('x'), 'application/json; charset=latin1');
    expect(latin1.status).toBe(415);
    expect(latin1.body['error']).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('answers a NUL in a header (refused by Node before the app) with a JSON 400 in the area shape', async () => {
    const r = await rawHttp(svc.url, 'GET /evidence-risk-review/reviews HTTP/1.1\r\nHost: x\r\nX-Note: a\0b\r\n\r\n');
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toContain('application/json');
    expect(JSON.parse(r.body)).toEqual({ error: { code: 'bad_request', message: expect.stringContaining('not well-formed HTTP'), details: [] } });
  });

  it('answers bytes that are not UTF-8 in X-Request-Id 422 naming the header', async () => {
    const r = await rawHttp(svc.url, `GET /evidence-risk-review/reviews HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nX-Request-Id: r\xc3\r\nConnection: close\r\n\r\n`);
    expect(r.status).toBe(422);
    expect(JSON.parse(r.body)['error']).toMatchObject({ code: 'validation_error', details: [{ path: 'header.x-request-id', message: 'must be valid UTF-8' }] });
  });
});
