import { EvidenceError, EvidenceValidationError, FieldProblem } from './errors';
import { parseReviewRequest } from './request';
import { MAX_UNSTORABLE_PROBLEMS } from './request/well-formed-input';

function problemsOf(input: unknown): FieldProblem[] {
  try {
    parseReviewRequest(input);
  } catch (e) {
    expect(e).toBeInstanceOf(EvidenceValidationError);
    expect(e).toBeInstanceOf(EvidenceError);
    expect(e).toMatchObject({ code: 'validation_error', status: 422 });
    return (e as EvidenceValidationError).details;
  }
  throw new Error('expected the request to be refused');
}

const messageAt = (problems: FieldProblem[], path: string) =>
  problems.find((p) => p.path === path)?.message;

describe('parseReviewRequest', () => {
  it('accepts an envelope and fills every default', () => {
    const r = parseReviewRequest({
      artifact: {
        artifact_id: 'a-1',
        answer_text: 'The answer.',
        claims: [{ id: 'c', text: 'A claim.' }],
        sources: [{ id: 's' }],
      },
    });
    expect(r).toEqual({
      artifact: {
        artifact_id: 'a-1',
        answer_text: 'The answer.',
        question: null,
        tenant_id: null,
        claims: [
          { id: 'c', text: 'A claim.', assertiveness: 'likely', source_ids: [], metadata: {} },
        ],
        sources: [
          { id: 's', url: null, title: null, snippet: null, declared_tier: null, metadata: {} },
        ],
        metadata: {},
      },
      options: {
        profile_key: null,
        budget: {},
        label_via_llm: false,
        dry_run: false,
        reviewed_at: null,
      },
    });
  });

  it('accepts a flat artifact with options beside it, and drops unknown fields', () => {
    const r = parseReviewRequest({
      artifact_id: 'a',
      answer_text: 'b',
      extra: 1,
      claims: [{ id: 'c', text: 't', colour: 'red' }],
      options: { profile_key: 'medical', verbose: true },
    });
    expect(r.artifact.artifact_id).toBe('a');
    expect(r.artifact).not.toHaveProperty('extra');
    expect(r.artifact.claims[0]).not.toHaveProperty('colour');
    expect(r.options.profile_key).toBe('medical');
    expect(r.options).not.toHaveProperty('verbose');
  });

  it('turns "" into null for question and tenant_id, and missing, null or "" assertiveness into likely', () => {
    const r = parseReviewRequest({
      artifact_id: 'a',
      answer_text: 'b',
      question: '',
      tenant_id: '',
      claims: [
        { id: '1', text: 't' },
        { id: '2', text: 't', assertiveness: null },
        { id: '3', text: 't', assertiveness: '' },
        { id: '4', text: 't', assertiveness: 'tentative' },
      ],
    });
    expect(r.artifact.question).toBeNull();
    expect(r.artifact.tenant_id).toBeNull();
    expect(r.artifact.claims.map((c) => c.assertiveness)).toEqual([
      'likely',
      'likely',
      'likely',
      'tentative',
    ]);
  });

  it('accepts declaredTier for declared_tier', () => {
    const r = parseReviewRequest({
      artifact_id: 'a',
      answer_text: 'b',
      sources: [{ id: 's', declaredTier: 'news' }],
    });
    expect(r.artifact.sources[0].declared_tier).toBe('news');
  });

  it('accepts budget caps as whole numbers or digit strings, keeping only those given', () => {
    const r = parseReviewRequest({
      artifact_id: 'a',
      answer_text: 'b',
      options: { budget: { max_llm_calls: '2', max_tokens: 0 } },
    });
    expect(r.options.budget).toEqual({ max_llm_calls: 2, max_tokens: 0 });
    expect(
      parseReviewRequest({ artifact_id: 'a', answer_text: 'b', options: { budget: null } }).options
        .budget,
    ).toEqual({});
  });

  it('normalises a replay time to milliseconds in UTC', () => {
    const at = (reviewed_at: string) =>
      parseReviewRequest({ artifact_id: 'a', answer_text: 'b', options: { reviewed_at } }).options
        .reviewed_at;
    expect(at('2026-01-31T12:00:00Z')).toBe('2026-01-31T12:00:00.000Z');
    expect(at('2026-01-31T12:00:00.123456Z')).toBe('2026-01-31T12:00:00.123Z');
  });

  it('lists every problem at once, each with its field path and a message naming it', () => {
    const problems = problemsOf({
      artifact: {
        artifact_id: '',
        claims: [{ id: 7, text: 'x', assertiveness: 'certain', source_ids: ['', 's', 3] }, 'nope'],
        sources: [{ id: 's', url: 5, declared_tier: false }],
        metadata: [1],
      },
      options: {
        dry_run: 'yes',
        label_via_llm: 1,
        budget: { max_tokens: -1, max_llm_calls: '1.5' },
        profile_key: '',
      },
    });
    expect(problems).toEqual([
      {
        path: 'artifact.artifact_id',
        message: 'Expected non-empty string at [artifact.artifact_id].',
      },
      {
        path: 'artifact.answer_text',
        message: 'Expected non-empty string at [artifact.answer_text].',
      },
      {
        path: 'artifact.claims.0.id',
        message: 'Expected non-empty string at [artifact.claims.0.id].',
      },
      {
        path: 'artifact.claims.0.assertiveness',
        message:
          'Expected one of definitive, likely, tentative at [artifact.claims.0.assertiveness].',
      },
      {
        path: 'artifact.claims.0.source_ids.0',
        message: 'Expected non-empty string at [artifact.claims.0.source_ids.0].',
      },
      {
        path: 'artifact.claims.0.source_ids.2',
        message: 'Expected non-empty string at [artifact.claims.0.source_ids.2].',
      },
      { path: 'artifact.claims.1', message: 'Expected an object at [artifact.claims.1].' },
      {
        path: 'artifact.sources.0.url',
        message: 'Expected string or null at [artifact.sources.0.url].',
      },
      {
        path: 'artifact.sources.0.declared_tier',
        message: 'Expected string or null at [artifact.sources.0.declared_tier].',
      },
      {
        path: 'artifact.metadata',
        message: 'Expected an object with string keys at [artifact.metadata].',
      },
      {
        path: 'options.profile_key',
        message: 'Expected non-empty string at [options.profile_key].',
      },
      {
        path: 'options.label_via_llm',
        message: 'Review option [label_via_llm] must be a boolean.',
      },
      { path: 'options.dry_run', message: 'Review option [dry_run] must be a boolean.' },
      {
        path: 'options.budget.max_llm_calls',
        message: 'Budget [max_llm_calls] must be a whole number, zero or greater.',
      },
      {
        path: 'options.budget.max_tokens',
        message: 'Budget [max_tokens] must be a whole number, zero or greater.',
      },
    ]);
  });

  it('summarises the problems in the error message', () => {
    try {
      parseReviewRequest({ artifact_id: 'a', answer_text: '' });
    } catch (e) {
      expect((e as Error).message).toBe(
        'Invalid review request: Expected non-empty string at [answer_text].',
      );
      return;
    }
    throw new Error('expected a validation error');
  });

  it('uses paths of the shape the client sent: flat requests have no artifact prefix', () => {
    expect(
      problemsOf({ artifact_id: 'a', answer_text: 'b', claims: null, sources: { a: 1 } }),
    ).toEqual([
      { path: 'claims', message: 'Expected a list of objects at [claims].' },
      { path: 'sources', message: 'Expected a list of objects at [sources].' },
    ]);
  });

  it.each([
    ['a numeric claim id', { claims: [{ id: 1, text: 't' }] }, 'claims.0.id'],
    ['an empty claim text', { claims: [{ id: 'c', text: ' ' }] }, 'claims.0.text'],
    [
      'null source_ids',
      { claims: [{ id: 'c', text: 't', source_ids: null }] },
      'claims.0.source_ids',
    ],
    [
      'an object as source_ids',
      { claims: [{ id: 'c', text: 't', source_ids: { a: 's' } }] },
      'claims.0.source_ids',
    ],
    ['an empty source id', { sources: [{ id: '' }] }, 'sources.0.id'],
    [
      'a list as claim metadata, even an empty one',
      { claims: [{ id: 'c', text: 't', metadata: [] }] },
      'claims.0.metadata',
    ],
    ['a list as source metadata', { sources: [{ id: 's', metadata: [1] }] }, 'sources.0.metadata'],
    ['a non-string question', { question: 5 }, 'question'],
    ['options that are not an object', { options: [] }, 'options'],
    ['a budget that is not an object', { options: { budget: 3 } }, 'options.budget'],
    [
      'a negative budget string',
      { options: { budget: { max_wall_seconds: '-1' } } },
      'options.budget.max_wall_seconds',
    ],
    [
      'a replay time with an offset',
      { options: { reviewed_at: '2026-01-31T12:00:00+01:00' } },
      'options.reviewed_at',
    ],
    [
      'an impossible replay date',
      { options: { reviewed_at: '2026-02-30T00:00:00Z' } },
      'options.reviewed_at',
    ],
  ])('refuses %s', (_name, fields, path) => {
    const problems = problemsOf({ artifact_id: 'a', answer_text: 'b', ...fields });
    expect(problems.map((p) => p.path)).toEqual([path]);
  });

  it('refuses a strict boolean option given as a string or number', () => {
    expect(
      messageAt(
        problemsOf({ artifact_id: 'a', answer_text: 'b', options: { dry_run: 'true' } }),
        'options.dry_run',
      ),
    ).toBe('Review option [dry_run] must be a boolean.');
  });

  it('refuses a non-object request, and an envelope whose artifact is not an object', () => {
    expect(problemsOf('text')).toEqual([
      { path: '', message: 'Expected a JSON object at the top level.' },
    ]);
    expect(problemsOf([])).toEqual([
      { path: '', message: 'Expected a JSON object at the top level.' },
    ]);
    expect(problemsOf({ artifact: 'x' })).toEqual([
      { path: 'artifact', message: 'Expected an object at [artifact].' },
    ]);
  });

  it('has no duplicate-id checks', () => {
    const claims = Array.from({ length: 3 }, () => ({ id: 'same', text: 't' }));
    expect(
      parseReviewRequest({ artifact_id: 'a', answer_text: 'b', claims }).artifact.claims,
    ).toHaveLength(3);
  });

  describe('values no review can keep as sent (refused before any review or write)', () => {
    it('refuses a lone UTF-16 surrogate in any string or key, naming each', () => {
      const parsed = JSON.parse(
        '{"artifact_id":"a","answer_text":"x \\ud800","claims":[{"id":"c","text":"t \\udc00 \\ud83d\\ude00"}],' +
          '"metadata":{"\\ud800k":{"deep":"fine"},"note":["\\udfff"]},"colour":"\\ud800"}',
      );
      expect(problemsOf(parsed)).toEqual([
        { path: 'answer_text', message: 'Expected well-formed text (no lone UTF-16 surrogate) at [answer_text].' },
        { path: 'claims.0.text', message: 'Expected well-formed text (no lone UTF-16 surrogate) at [claims.0.text].' },
        { path: 'metadata.\ufffdk', message: 'Expected well-formed text (no lone UTF-16 surrogate) at [metadata.\ufffdk].' },
        { path: 'metadata.note.0', message: 'Expected well-formed text (no lone UTF-16 surrogate) at [metadata.note.0].' },
        { path: 'colour', message: 'Expected well-formed text (no lone UTF-16 surrogate) at [colour].' },
      ]);
      // A surrogate pair (an emoji) is well-formed text.
      expect(parseReviewRequest({ artifact_id: 'a', answer_text: 'x \ud83d\ude00' }).artifact.answer_text).toBe('x 😀');
    });

    it('names at most the first MAX_UNSTORABLE_PROBLEMS of them: a body of many bad strings earns no huge answer', () => {
      const parsed = JSON.parse(`{"artifact_id":"a","answer_text":"b","metadata":{"x":[${Array(5000).fill('"\\ud800"').join(',')}]}}`);
      const problems = problemsOf(parsed);
      expect(problems).toHaveLength(MAX_UNSTORABLE_PROBLEMS);
      expect(problems[0]!.path).toBe('metadata.x.0');
    });

    it('refuses a number that is not finite (JSON 1e309 parses to Infinity, which serialises as null)', () => {
      const parsed = JSON.parse('{"artifact":{"artifact_id":"a","answer_text":"b","metadata":{"n":1e309,"m":-1e309,"ok":1e308}},"options":{"budget":{"max_tokens":1e309}}}');
      expect(problemsOf(parsed)).toEqual([
        { path: 'artifact.metadata.n', message: 'Expected a finite number at [artifact.metadata.n].' },
        { path: 'artifact.metadata.m', message: 'Expected a finite number at [artifact.metadata.m].' },
        { path: 'options.budget.max_tokens', message: 'Expected a finite number at [options.budget.max_tokens].' },
      ]);
    });

    it('refuses options.reviewed_at in year 0, which the review log (timestamptz) cannot hold', () => {
      const message = 'Review option [reviewed_at] must be an ISO-8601 UTC instant from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z, such as 2026-01-31T12:00:00Z.';
      for (const reviewed_at of ['0000-01-01T00:00:00Z', '0000-12-31T23:59:59.999Z'])
        expect(problemsOf({ artifact_id: 'a', answer_text: 'b', options: { reviewed_at, dry_run: true } })).toEqual([{ path: 'options.reviewed_at', message }]);
      for (const reviewed_at of ['0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999999Z'])
        expect(parseReviewRequest({ artifact_id: 'a', answer_text: 'b', options: { reviewed_at } }).options.reviewed_at).toBe(
          reviewed_at.startsWith('0001') ? '0001-01-01T00:00:00.000Z' : '9999-12-31T23:59:59.999Z',
        );
    });
  });

  describe('size limits (a result names each claim up to eight times)', () => {
    const claim = (i: number) => ({ id: `c${i}`, text: 't' });

    it('takes at most 1,000 claims and 5,000 sources, refusing a longer list as one problem', () => {
      const claims = Array.from({ length: 1000 }, (_, i) => claim(i));
      const sources = Array.from({ length: 5000 }, (_, i) => ({ id: `s${i}` }));
      expect(parseReviewRequest({ artifact_id: 'a', answer_text: 'b', claims, sources }).artifact.claims).toHaveLength(1000);
      expect(problemsOf({ artifact_id: 'a', answer_text: 'b', claims: [...claims, claim(1000)], sources: [...sources, { id: '' }] })).toEqual([
        { path: 'claims', message: 'Expected at most 1000 items at [claims].' },
        { path: 'sources', message: 'Expected at most 5000 items at [sources].' },
      ]);
    });

    it('takes at most 100 cited source ids per claim', () => {
      const source_ids = Array.from({ length: 100 }, (_, i) => `s${i}`);
      expect(parseReviewRequest({ artifact_id: 'a', answer_text: 'b', claims: [{ id: 'c', text: 't', source_ids }] }).artifact.claims[0].source_ids).toHaveLength(100);
      expect(problemsOf({ artifact_id: 'a', answer_text: 'b', claims: [{ id: 'c', text: 't', source_ids: [...source_ids, 's'] }] })).toEqual([
        { path: 'claims.0.source_ids', message: 'Expected at most 100 items at [claims.0.source_ids].' },
      ]);
    });

    it('takes claim and source ids of at most 256 characters, an empty one refused as before', () => {
      const long = 'x'.repeat(257);
      expect(parseReviewRequest({ artifact_id: 'a', answer_text: 'b', claims: [{ id: 'x'.repeat(256), text: 't' }] }).artifact.claims).toHaveLength(1);
      expect(problemsOf({ artifact_id: 'a', answer_text: 'b', claims: [{ id: long, text: 't', source_ids: [long, ''] }], sources: [{ id: long }] })).toEqual([
        { path: 'claims.0.id', message: 'Expected at most 256 characters at [claims.0.id].' },
        { path: 'claims.0.source_ids.0', message: 'Expected at most 256 characters at [claims.0.source_ids.0].' },
        { path: 'claims.0.source_ids.1', message: 'Expected non-empty string at [claims.0.source_ids.1].' },
        { path: 'sources.0.id', message: 'Expected at most 256 characters at [sources.0.id].' },
      ]);
    });
  });
});
