import { rawHttp, RunningService, TestJwksIssuer } from '@platform/testing';
import { startGuardrailsAdminWithIssuer } from './guardrails-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The text's `~` as a byte no UTF-8 text holds. */
const withInvalidByte = (text: string) => Buffer.from(text).map((b) => (b === 0x7e ? 0xff : b));

/** What no route can use is refused at the edge inside the API's v1 envelope, never a 5xx. */
describe('guardrails-admin: edge hygiene', () => {
  let issuer: TestJwksIssuer;
  let svc: RunningService;
  let stop: () => Promise<void>;
  let admin: string;

  beforeAll(async () => {
    ({ issuer, svc, stop } = await startGuardrailsAdminWithIssuer({ GUARDRAILS_API_ENABLED: 'true', GUARDRAILS_MAX_BODY_BYTES: '20000' }));
    admin = await issuer.mint({ scope: 'guardrails:admin', sub: 'admin-1' });
  });

  afterAll(() => stop());

  const call = async (method: string, path: string, body?: string | Uint8Array, contentType = 'application/json') => {
    const r = await fetch(`${svc.url}/guardrails/api${path}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
      body,
    });
    expect(r.headers.get('content-type')).toContain('application/json');
    return { status: r.status, body: (await r.json()) as Json };
  };

  it.each([
    ['NUL in a query parameter', 'GET', '/audit?q=a%00b', undefined, 'query.q', 'NUL'],
    ['invalid UTF-8 in a query parameter', 'GET', '/firewall?principal_id=%FF', undefined, 'query.principal_id', 'UTF-8'],
    ['NUL in a path parameter', 'POST', '/approvals/t%00k/approve', '{}', 'path.token', 'NUL'],
    ['NUL in a JSON string', 'POST', '/try/screen', '{"prompt":"a\\u0000b"}', 'body.prompt', 'NUL'],
    ['invalid UTF-8 bytes in a JSON string', 'POST', '/try/screen', withInvalidByte('{"prompt":"a~b"}'), 'body.prompt', 'UTF-8'],
    ['JSON nested 5,000 levels', 'PUT', '/settings', `{"settings":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'body', 'levels'],
    ['an integer of 1e20', 'PUT', '/settings', '{"settings":{"normalization.max_prompt_length":1e20}}', 'body.settings.normalization.max_prompt_length', '2^53'],
    ['a threshold that underflows to zero', 'PUT', '/settings', '{"settings":{"input_screen.classifier_threshold":1e-400}}', 'body', 'range of a double'],
  ])('answers 422 validation_failed in the error envelope for %s', async (_name, method, path, body, field, word) => {
    const r = await call(method, path, body);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ schema_version: 'guardrails.api.v1', schema: 'guardrails.api.v1.error', data: { error: 'validation_failed' } });
    expect(r.body['data']['errors'][field]).toEqual([expect.stringContaining(word)]);
  });

  it.each([
    ['a limit of 1e20', '/audit?limit=1e20'],
    ['a cursor of 20 digits', '/firewall?cursor=99999999999999999999'],
    ['a negative limit', '/settings/changes?limit=-1'],
    ['NaN as a cursor', '/audit?cursor=NaN'],
  ])('answers %s with 422 naming the parameter', async (_name, path) => {
    const r = await call('GET', path);
    expect(r.status).toBe(422);
    expect(Object.keys(r.body['data']['errors'])[0]).toMatch(/^(limit|cursor)$/);
  });

  it('answers an id of 1e20 as an unknown entry', async () => {
    const r = await call('GET', '/audit/1e20');
    expect(r.status).toBe(404);
    expect(r.body['data']).toMatchObject({ error: 'not_found' });
  });

  it('answers a 2 MB body 413, malformed JSON 400 and charset=latin1 415, all enveloped', async () => {
    const big = await call('POST', '/try/screen', JSON.stringify({ prompt: 'x'.repeat(2_000_000) }));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ schema: 'guardrails.api.v1.error', data: { error: 'payload_too_large' } });
    const malformed = await call('POST', '/try/screen', '{"prompt":');
    expect(malformed.status).toBe(400);
    expect(malformed.body['data']).toMatchObject({ error: 'bad_request' });
    const latin1 = await call('POST', '/try/screen', '{"prompt":"x"}', 'application/json; charset=latin1');
    expect(latin1.status).toBe(415);
    expect(latin1.body['data']).toMatchObject({ error: 'unsupported_media_type' });
  });

  it('answers a malformed request line (refused by Node before the app) with a JSON 400 in the error envelope', async () => {
    const r = await rawHttp(svc.url, 'GET /guardrails/api/overview\0 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({ schema_version: 'guardrails.api.v1', schema: 'guardrails.api.v1.error', data: { error: 'bad_request', message: expect.any(String) } });
  });

  it('answers bytes that are not UTF-8 in Idempotency-Key 422 naming the header', async () => {
    const r = await rawHttp(svc.url, `GET /guardrails/api/overview HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin}\r\nIdempotency-Key: k\xff\r\nConnection: close\r\n\r\n`);
    expect(r.status).toBe(422);
    expect(JSON.parse(r.body)['data']).toMatchObject({ error: 'validation_failed', errors: { 'header.idempotency-key': ['must be valid UTF-8'] } });
  });
});
