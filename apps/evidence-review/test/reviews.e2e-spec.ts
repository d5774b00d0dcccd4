import { RunningService, TestJwksIssuer } from '@platform/testing';
import { startEvidenceWithIssuer } from './evidence-test-env';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const request = (id: string, extra: Json = {}) => ({
  artifact: {
    artifact_id: id,
    answer_text: 'Answer.',
    claims: [
      { id: 'c1', text: 'This always cures it.', assertiveness: 'definitive', source_ids: ['s1'] },
      { id: 'c2', text: 'A plain statement.', source_ids: ['s2'] },
    ],
    sources: [
      { id: 's1', url: 'https://blog.example/post' },
      { id: 's2', url: 'https://doi.org/10.1000/182' },
    ],
  },
  options: { profile_key: 'medical', ...extra },
});

describe('evidence-review HTTP API', () => {
  let issuer: TestJwksIssuer;
  let svc: RunningService;
  let tokenA: string;
  let tokenB: string;

  const call = async (method: string, path: string, token: string | undefined, body?: unknown) => {
    const r = await fetch(`${svc.url}/evidence-risk-review${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: r.status, text: await r.text(), get body() { return JSON.parse(this.text) as Json; } };
  };

  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ issuer, svc, stop } = await startEvidenceWithIssuer({ EVIDENCE_API_ENABLED: 'true', EVIDENCE_MAX_BODY_BYTES: '20000' }));
    tokenA = await issuer.mint({ scope: 'evidence:review', extra: { tenant_id: 'tenant-a' } });
    tokenB = await issuer.mint({ scope: 'evidence:review', extra: { tenant_id: 'tenant-b' } });
  });

  afterAll(() => stop());

  it('needs a token (401) with evidence:review (403)', async () => {
    expect((await call('GET', '/profiles', undefined)).status).toBe(401);
    const other = await issuer.mint({ scope: 'kb:read' });
    expect((await call('GET', '/profiles', other)).status).toBe(403);
  });

  it('reviews with 201, logs the review for the caller tenant only, and serves it back unchanged', async () => {
    const created = await call('POST', '/reviews', tokenA, request('art-1'));
    expect(created.status).toBe(201);
    const result = created.body;
    // medical: evidence strength flags for human review; "cures" alone would only soften.
    expect(result).toMatchObject({ artifact_id: 'art-1', profile_key: 'medical', verdict: 'flag_for_human_review', claim_verdicts: { c1: 'flag_for_human_review' } });
    // Each source's tier as /taxonomy lists it (reference §1.2), not a bare key.
    expect(result['source_tiers']).toEqual({
      s1: { key: 'unverified', rank: 0, label: 'Unverified', builtin: true },
      s2: { key: 'peer_reviewed', rank: 80, label: 'Peer-reviewed', builtin: true },
    });
    expect(result['claim_gaps']).toEqual({ c1: 100, c2: 0 });

    const fetched = await call('GET', `/reviews/${result['review_id']}`, tokenA);
    expect(fetched.status).toBe(200);
    expect(fetched.text).toBe(created.text);
    const foreign = await call('GET', `/reviews/${result['review_id']}`, tokenB);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 'unknown_review', message: `Unknown review [${result['review_id']}].`, details: [] } });
  });

  it('gives byte-identical results for a replayed request', async () => {
    const a = await call('POST', '/reviews', tokenA, request('art-2', { reviewed_at: '2026-01-01T00:00:00Z', dry_run: true }));
    const b = await call('POST', '/reviews', tokenA, request('art-2', { reviewed_at: '2026-01-01T00:00:00Z', dry_run: true }));
    expect(a.text).toBe(b.text);
  });

  it('lists the tenant log newest first with pagination and filters; dry runs are not logged', async () => {
    for (let i = 0; i < 3; i++) await call('POST', '/reviews', tokenB, request(`b-${i}`, { profile_key: i === 2 ? 'engineering' : 'medical' }));
    await call('POST', '/reviews', tokenB, request('b-dry', { dry_run: true }));
    const page1 = await call('GET', '/reviews?per_page=2', tokenB);
    expect(page1.body).toMatchObject({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    expect(page1.body['data'].map((r: Json) => r['artifact_id'])).toEqual(['b-2', 'b-1']);
    expect(page1.body['data'][0]).toMatchObject({ tenant_id: 'tenant-b', profile_key: 'engineering' });
    const page2 = await call('GET', '/reviews?per_page=2&page=2', tokenB);
    expect(page2.body['data'].map((r: Json) => r['artifact_id'])).toEqual(['b-0']);
    expect((await call('GET', '/reviews?profile=engineering', tokenB)).body['total']).toBe(1);
    expect((await call('GET', '/reviews?min_verdict=remove', tokenB)).body['total']).toBe(0);
    expect((await call('GET', '/reviews?per_page=1000&page=abc', tokenB)).body).toMatchObject({ per_page: 100, current_page: 1 });
  });

  it('answers validation problems with 422 and field paths, unknown profiles with 404', async () => {
    const bad = await call('POST', '/reviews', tokenA, { artifact: { artifact_id: 'x', claims: [{ id: 'c' }] } });
    expect(bad.status).toBe(422);
    expect(bad.body['error']['code']).toBe('validation_error');
    expect(bad.body['error']['details'].map((d: Json) => d['path'])).toEqual(expect.arrayContaining(['artifact.answer_text', 'artifact.claims.0.text']));
    const unknown = await call('POST', '/reviews', tokenA, request('x', { profile_key: 'tarot' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body['error']['code']).toBe('unknown_profile');
  });

  it("answers a refused body with every problem at the path the client sent, in the engine's words", async () => {
    const bad = await call('POST', '/reviews', tokenA, { artifact_id: 'x', answer_text: ' ', claims: [{ id: 'c', text: 't', source_ids: ['', 's'] }, 'c'], colour: 'red', options: { dry_run: 'yes' } });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      error: {
        code: 'validation_error',
        message:
          'Invalid review request: Expected non-empty string at [answer_text]. Expected non-empty string at [claims.0.source_ids.0]. Expected an object at [claims.1]. Review option [dry_run] must be a boolean.',
        details: [
          { path: 'answer_text', message: 'Expected non-empty string at [answer_text].' },
          { path: 'claims.0.source_ids.0', message: 'Expected non-empty string at [claims.0.source_ids.0].' },
          { path: 'claims.1', message: 'Expected an object at [claims.1].' },
          { path: 'options.dry_run', message: 'Review option [dry_run] must be a boolean.' },
        ],
      },
    });
  });

  it('refuses bodies over the configured limit with 413 and malformed JSON with 400', async () => {
    const big = request('big');
    big.artifact.answer_text = 'x'.repeat(30000);
    const r = await call('POST', '/reviews', tokenA, big);
    expect(r.status).toBe(413);
    expect(r.body['error']['code']).toBe('payload_too_large');
    const broken = await call('POST', '/reviews', tokenA, '{"artifact":');
    expect(broken.status).toBe(400);
    expect(broken.body['error']['code']).toBe('bad_request');
  });

  it('serves profiles, one profile and the taxonomy', async () => {
    expect(Object.keys((await call('GET', '/profiles', tokenA)).body['profiles'])).toEqual(['default', 'engineering', 'finance', 'legal', 'medical']);
    const medical = await call('GET', '/profiles/medical', tokenA);
    expect(medical.body['profile']).toMatchObject({ key: 'medical', min_tier: { definitive: 'guideline' } });
    expect((await call('GET', '/profiles/nope', tokenA)).body['error']['code']).toBe('unknown_profile');
    expect((await call('GET', '/taxonomy', tokenA)).body['risk_checks']).toHaveLength(6);
  });

  const tenantToken = (tenant: string) => issuer.mint({ scope: 'evidence:review', extra: { tenant_id: tenant } });
  const loggedIds = async (token: string, query = '') => (await call('GET', `/reviews?per_page=100${query}`, token)).body['data'].map((r: Json) => r['artifact_id']);

  it('refuses a lone UTF-16 surrogate in any string or key and a year-0 reviewed_at before any write; the other reviews written with them are logged', async () => {
    // The platform's edge refuses it for every route (the engine's own check serves the CLI).
    const surrogate = expect.stringContaining('must be valid Unicode text');
    const inText = await call('POST', '/reviews', tokenA, '{"artifact":{"artifact_id":"sur-1","answer_text":"x \\ud800"}}');
    expect(inText.status).toBe(422);
    expect(inText.body['error']).toMatchObject({ code: 'validation_error', details: [{ path: 'body.artifact.answer_text', message: surrogate }] });
    const inKey = await call('POST', '/reviews', tokenA, '{"artifact_id":"sur-2","answer_text":"x","metadata":{"\\udc00":1},"options":{"dry_run":true}}');
    expect([inKey.status, inKey.body['error']['details']]).toEqual([422, [{ path: 'body.metadata.\ufffd', message: surrogate }]]);
    // Accepted as a dry run before (201), although the log's timestamptz cannot hold year 0.
    const year0 = await call('POST', '/reviews', tokenA, request('y0', { reviewed_at: '0000-01-01T00:00:00Z', dry_run: true }));
    expect([year0.status, year0.body['error']['details'][0]['path']]).toEqual([422, 'options.reviewed_at']);

    // Written together, reviews share one INSERT: the refused ones must not take the others down.
    const token = await tenantToken('tenant-batch');
    const answers = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        i % 3 === 1
          ? call('POST', '/reviews', token, i === 1 ? '{"artifact":{"artifact_id":"bad","answer_text":"x \\ud800"}}' : request(`bad-${i}`, { reviewed_at: '0000-01-01T00:00:00Z' }))
          : call('POST', '/reviews', token, request(`ok-${i}`)),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 422, 201, 201, 422, 201, 201, 422, 201]);
    expect((await loggedIds(token)).sort()).toEqual(['ok-0', 'ok-2', 'ok-3', 'ok-5', 'ok-6', 'ok-8']);
  });

  it('refuses a number that is not finite (1e309) with 422 naming the field, as it refuses 1e308, and logs nothing', async () => {
    const token = await tenantToken('tenant-numbers');
    for (const n of ['1e309', '-1e309']) {
      const r = await call('POST', '/reviews', token, `{"artifact":{"artifact_id":"inf","answer_text":"x","metadata":{"n":${n}}}}`);
      expect(r.status).toBe(422);
      expect(r.body['error']).toMatchObject({ code: 'validation_error', details: [{ path: 'body.artifact.metadata.n', message: expect.stringContaining('range of a double') }] });
    }
    const big = await call('POST', '/reviews', token, '{"artifact":{"artifact_id":"big","answer_text":"x","metadata":{"n":1e308}}}');
    expect([big.status, big.body['error']['details'][0]['path']]).toEqual([422, 'body.artifact.metadata.n']);
    expect(await loggedIds(token)).toEqual([]);
  });

  it('takes at most 1,000 claims, 5,000 sources, 100 cited ids per claim and ids of 256 characters (422 naming the limit)', async () => {
    const limit = async (artifact: Json, path: string, message: string) => {
      const r = await call('POST', '/reviews', tokenA, { artifact: { artifact_id: 'lim', answer_text: 'x', ...artifact } });
      expect(r.status).toBe(422);
      expect(r.body['error']['details']).toEqual([{ path, message }]);
    };
    await limit({ claims: Array.from({ length: 1001 }, () => ({})) }, 'artifact.claims', 'Expected at most 1000 items at [artifact.claims].');
    await limit({ sources: Array.from({ length: 5001 }, () => ({})) }, 'artifact.sources', 'Expected at most 5000 items at [artifact.sources].');
    await limit({ claims: [{ id: 'c', text: 't', source_ids: Array(101).fill('s') }] }, 'artifact.claims.0.source_ids', 'Expected at most 100 items at [artifact.claims.0.source_ids].');
    await limit({ claims: [{ id: 'c'.repeat(257), text: 't' }] }, 'artifact.claims.0.id', 'Expected at most 256 characters at [artifact.claims.0.id].');
    await limit({ sources: [{ id: 's'.repeat(257) }] }, 'artifact.sources.0.id', 'Expected at most 256 characters at [artifact.sources.0.id].');
    // (1,000 claims do not fit this suite's 20,000-byte body limit; the engine's spec takes them.)
  });

  it('logs one row per review id (the first answer) and lists by when reviews were logged, not by a client-set reviewed_at', async () => {
    const token = await tenantToken('tenant-log');
    const first = await call('POST', '/reviews', token, request('dup'));
    // The same request again (reviewed_at is not part of the review id): the same review.
    const again = await call('POST', '/reviews', token, request('dup', { reviewed_at: '2026-05-05T00:00:00Z' }));
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body['review_id']).toBe(first.body['review_id']);
    expect((await call('GET', `/reviews/${first.body['review_id']}`, token)).text).toBe(first.text);
    expect(await loggedIds(token, '&artifact_id=dup')).toEqual(['dup']);

    await call('POST', '/reviews', token, request('pinned', { reviewed_at: '9999-12-31T23:59:59Z' }));
    await call('POST', '/reviews', token, request('backdated', { reviewed_at: '1970-01-01T00:00:00Z' }));
    await call('POST', '/reviews', token, request('now'));
    expect(await loggedIds(token)).toEqual(['now', 'backdated', 'pinned', 'dup']);
    // The replayed instant is still the review's own.
    expect((await call('GET', '/reviews?per_page=100', token)).body['data'][2]['reviewed_at']).toBe('9999-12-31T23:59:59.000Z');
  });
});
