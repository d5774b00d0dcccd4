import { RunningService, TestJwksIssuer } from '@platform/testing';
import { startEvidenceWithIssuer } from './evidence-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const review = (id: string, options: Json = {}) =>
  JSON.stringify({
    artifact: { artifact_id: id, answer_text: 'Answer.', claims: [{ id: 'c1', text: 'It always works.', source_ids: ['s1'] }], sources: [{ id: 's1', url: 'https://doi.org/10.1000/1' }] },
    options,
  });

/** What the lean request path for POST /reviews does by itself (the contract lives in reviews.e2e-spec). */
describe('evidence-review: POST /reviews on the lean request path', () => {
  let issuer: TestJwksIssuer;
  let svc: RunningService;
  let stop: () => Promise<void>;
  let token: string;

  beforeAll(async () => {
    ({ issuer, svc, stop } = await startEvidenceWithIssuer({ EVIDENCE_API_ENABLED: 'true', EVIDENCE_MAX_BODY_BYTES: '20000', SHUTDOWN_GRACE_MS: '300' }));
    token = await issuer.mint({ scope: 'evidence:review', extra: { tenant_id: 'lean' } });
  });

  afterAll(() => stop());

  const post = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = {}, init: Json = {}) =>
    fetch(`${svc.url}/evidence-risk-review/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
      body,
      ...init,
    });

  it('echoes the request id and answers 201 with a review that is already in the log', async () => {
    const r = await post(review('lean-1'), { 'x-request-id': 'lean-req-1' });
    expect(r.status).toBe(201);
    expect(r.headers.get('x-request-id')).toBe('lean-req-1');
    const created = (await r.json()) as Json;
    const stored = await fetch(`${svc.url}/evidence-risk-review/reviews/${created['review_id']}`, { headers: { authorization: `Bearer ${token}` } });
    expect(stored.status).toBe(200);
    expect(((await stored.json()) as Json)['artifact_id']).toBe('lean-1');
  });

  it('has every concurrently accepted review in the log when its 201 arrives', async () => {
    const batchToken = await issuer.mint({ scope: 'evidence:review', extra: { tenant_id: 'lean-batch' } });
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const r = await post(review(`batch-${i}`), { authorization: `Bearer ${batchToken}` });
        await r.arrayBuffer();
        return r.status;
      }),
    );
    expect(statuses.every((s) => s === 201)).toBe(true);
    const listed = await fetch(`${svc.url}/evidence-risk-review/reviews?per_page=100`, { headers: { authorization: `Bearer ${batchToken}` } });
    const page = (await listed.json()) as Json;
    expect(page['total']).toBe(40);
    expect(new Set(page['data'].map((r: Json) => r['artifact_id'])).size).toBe(40);
  });

  it('counts requests in the HTTP histogram under the route template, refusals included', async () => {
    await post(review('lean-2', { dry_run: true }));
    await post(review('lean-3'), { authorization: 'Bearer nope' });
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    expect(text).toMatch(/http_server_request_duration_seconds_count\{service="evidence-review",method="POST",route="\/evidence-risk-review\/reviews",status="201"\} \d+/);
    expect(text).toMatch(/http_server_request_duration_seconds_count\{service="evidence-review",method="POST",route="\/evidence-risk-review\/reviews",status="401"\} \d+/);
  });

  it('refuses a streamed body that grows past the limit with 413', async () => {
    const chunk = new TextEncoder().encode(`{"artifact":{"answer_text":"${'x'.repeat(10000)}`);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const r = await post(stream, {}, { duplex: 'half' });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ error: { code: 'payload_too_large', message: 'The request body is larger than the configured limit.', details: [] } });
  });

  it('leaves other content types to the Nest route, which answers in the same error shape', async () => {
    const r = await post('artifact=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(r.status).toBe(422);
    expect(((await r.json()) as Json)['error']['code']).toBe('validation_error');
  });

  it.each([
    ['a dry run', {}, review('same-1', { dry_run: true, reviewed_at: '2026-01-01T00:00:00Z' })],
    ['no token', { authorization: '' }, review('same-2', { dry_run: true })],
    ['a malformed token', { authorization: 'Bearer a.b.c' }, review('same-3', { dry_run: true })],
    ['malformed JSON', {}, '{"artifact":'],
    ['a JSON string', {}, '"text"'],
    ['an empty body', {}, ''],
    ['an invalid request', {}, '{"artifact":{}}'],
    ['an unknown profile', {}, review('same-4', { dry_run: true, profile_key: 'tarot' })],
    ['a body over the limit', {}, review('x'.repeat(30000), { dry_run: true })],
  ] as Array<[string, Record<string, string>, string]>)('answers %s exactly as the Nest route does', async (_name, headers, body) => {
    const answer = async (path: string) => {
      const r = await fetch(`${svc.url}/evidence-risk-review/reviews${path}`, {
        method: 'POST',
        headers: Object.fromEntries(Object.entries({ 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers }).filter(([, v]) => v)),
        body,
      });
      const kept = [...r.headers].filter(([k]) => !['date', 'x-request-id'].includes(k));
      return { status: r.status, headers: Object.fromEntries(kept), body: await r.text() };
    };
    // A query string takes the request past the lean path to the Nest route.
    expect(await answer('')).toEqual(await answer('?via=nest'));
  });

  it('keeps answering while draining but closes each connection, then stops with the server', async () => {
    const closing = svc.app.close();
    await new Promise((r) => setTimeout(r, 50));
    const during = await post(review('lean-drain', { dry_run: true }));
    expect(during.status).toBe(201);
    expect(during.headers.get('connection')).toBe('close');
    await closing;
    await expect(post(review('lean-after', { dry_run: true }))).rejects.toThrow();
  });
});
