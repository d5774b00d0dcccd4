import { EvidenceValidationError, FieldProblem } from '../errors';
import { parseReviewRequest, parseSource } from './parse-review-request';

function problemsOf(parse: () => unknown): FieldProblem[] {
  try {
    parse();
  } catch (e) {
    expect(e).toBeInstanceOf(EvidenceValidationError);
    return (e as EvidenceValidationError).details;
  }
  throw new Error('expected the input to be refused');
}

const flat = { artifact_id: 'a', answer_text: 'b' };

/** What validating against ReviewRequestDto adds beside request.spec.ts (the contract itself). */
describe('the review request DTO', () => {
  it('refuses list items built to mislead the validator by their path alone: a chosen constructor, arrays thousands deep', () => {
    let deep: unknown = [];
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(
      problemsOf(() =>
        parseReviewRequest({
          ...flat,
          claims: [[{ constructor: null }], [{ constructor: {} }], deep],
          sources: [[{ constructor: { prototype: null } }]],
        }),
      ),
    ).toEqual([
      { path: 'claims.0', message: 'Expected an object at [claims.0].' },
      { path: 'claims.1', message: 'Expected an object at [claims.1].' },
      { path: 'claims.2', message: 'Expected an object at [claims.2].' },
      { path: 'sources.0', message: 'Expected an object at [sources.0].' },
    ]);
  });

  it('places bad list items and the insides of good ones in list order', () => {
    expect(
      problemsOf(() =>
        parseReviewRequest({
          ...flat,
          claims: [
            null,
            { id: '', text: 't' },
            [{ id: 'c', text: 't' }],
            'c',
            { id: 'c', text: '' },
          ],
        }),
      ),
    ).toEqual([
      { path: 'claims.0', message: 'Expected an object at [claims.0].' },
      { path: 'claims.1.id', message: 'Expected non-empty string at [claims.1.id].' },
      { path: 'claims.2', message: 'Expected an object at [claims.2].' },
      { path: 'claims.3', message: 'Expected an object at [claims.3].' },
      { path: 'claims.4.text', message: 'Expected non-empty string at [claims.4.text].' },
    ]);
  });

  it('does not look inside a field of the wrong shape', () => {
    expect(
      problemsOf(() =>
        parseReviewRequest({
          artifact: [{ artifact_id: '' }],
          options: { budget: [{ max_tokens: -1 }] },
        }),
      ),
    ).toEqual([
      { path: 'artifact', message: 'Expected an object at [artifact].' },
      { path: 'options.budget', message: 'Expected an object or null at [options.budget].' },
    ]);
  });

  it('judges declaredTier, at its own path, only when declared_tier is left out', () => {
    expect(
      problemsOf(() => parseReviewRequest({ ...flat, sources: [{ id: 's', declaredTier: 5 }] })),
    ).toEqual([
      {
        path: 'sources.0.declaredTier',
        message: 'Expected string or null at [sources.0.declaredTier].',
      },
    ]);
    const r = parseReviewRequest({
      ...flat,
      sources: [{ id: 's', declared_tier: null, declaredTier: 5 }],
    });
    expect(r.artifact.sources[0].declared_tier).toBeNull();
  });

  it('takes null options and a null budget as the defaults', () => {
    expect(parseReviewRequest({ ...flat, options: null }).options).toEqual({
      profile_key: null,
      budget: {},
      label_via_llm: false,
      dry_run: false,
      reviewed_at: null,
    });
    expect(
      parseReviewRequest({ ...flat, options: { budget: null, profile_key: null } }).options,
    ).toMatchObject({
      profile_key: null,
      budget: {},
    });
  });

  it('refuses null for a review switch and for a list', () => {
    expect(problemsOf(() => parseReviewRequest({ ...flat, options: { dry_run: null } }))).toEqual([
      { path: 'options.dry_run', message: 'Review option [dry_run] must be a boolean.' },
    ]);
    expect(
      problemsOf(() =>
        parseReviewRequest({
          ...flat,
          claims: [{ id: 'c', text: 't', source_ids: null }],
          sources: null,
        }),
      ),
    ).toEqual([
      {
        path: 'claims.0.source_ids',
        message: 'Expected a list of non-empty strings at [claims.0.source_ids].',
      },
      { path: 'sources', message: 'Expected a list of objects at [sources].' },
    ]);
  });

  it('passes metadata through as sent, "constructor" and "__proto__" keys included', () => {
    const metadata = JSON.parse('{"constructor": 5, "__proto__": {"a": 1}, "k": [1]}') as Record<
      string,
      unknown
    >;
    const claimMetadata = JSON.parse('{"constructor": {"name": "x"}}') as Record<string, unknown>;
    const r = parseReviewRequest({
      ...flat,
      metadata,
      claims: [{ id: 'c', text: 't', metadata: claimMetadata }],
      extra: JSON.parse('{"constructor": 1}'),
    });
    expect(r.artifact.metadata).toBe(metadata);
    expect(r.artifact.claims[0].metadata).toBe(claimMetadata);
    expect(r.artifact).not.toHaveProperty('extra');
  });

  it('validates one source with paths from its own top level', () => {
    expect(parseSource({ id: 's', url: '', declaredTier: 'news', colour: 'red' })).toEqual({
      id: 's',
      url: null,
      title: null,
      snippet: null,
      declared_tier: 'news',
      metadata: {},
    });
    expect(problemsOf(() => parseSource({ id: ' ', metadata: [] }))).toEqual([
      { path: 'id', message: 'Expected non-empty string at [id].' },
      { path: 'metadata', message: 'Expected an object with string keys at [metadata].' },
    ]);
    expect(problemsOf(() => parseSource([]))).toEqual([
      { path: '', message: 'Expected a JSON object at the top level.' },
    ]);
  });
});
