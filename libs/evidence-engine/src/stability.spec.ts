import fc from 'fast-check';
import { canonicalJson } from './canonical';
import { EngineConfig } from './config';
import { createReviewEngine } from './engine';
import { fixedClock } from './ports';
import { CHECK_KINDS, ReviewResult } from './types';

const clock = fixedClock('2026-11-22T10:00:00Z');
const review = (request: unknown, config: EngineConfig = {}) =>
  createReviewEngine(config, { clock }).review(request);
const bytes = async (request: unknown, config: EngineConfig = {}) =>
  JSON.stringify(await review(request, config));

// Ids include integer-like ones, which plain objects would reorder.
const idArb = fc.constantFrom('1', '2', '10', 'a', 'b', 'c-1', 'z');
const claimArb = fc.record(
  {
    id: idArb,
    text: fc.oneof(
      fc.constantFrom(
        'Always works.',
        'Plain statement.',
        'Risk of fraud.',
        'Not for children.',
        'Regardless of dose.',
        'Do not use.',
      ),
      fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
    ),
    assertiveness: fc.constantFrom('definitive', 'likely', 'tentative', undefined),
    source_ids: fc.array(idArb, { maxLength: 3 }),
  },
  { requiredKeys: ['id', 'text'] },
);
const sourceArb = fc.record(
  {
    id: idArb,
    declared_tier: fc.constantFrom('guideline', 'news', 'blog', 'peer_reviewed', 'bogus', null),
    url: fc.constantFrom(
      'https://arxiv.org/abs/1',
      'https://doi.org/10.1000/x',
      'https://site.test/',
      null,
    ),
  },
  { requiredKeys: ['id'] },
);
const requestArb = fc.record({
  artifact: fc.record({
    artifact_id: fc.constantFrom('art-1', 'art-2'),
    answer_text: fc.constantFrom('Answer.', 'Another answer.'),
    claims: fc.array(claimArb, { maxLength: 8 }),
    sources: fc.array(sourceArb, { maxLength: 5 }),
  }),
  options: fc.record({
    profile_key: fc.constantFrom('default', 'engineering', 'finance', 'legal', 'medical'),
  }),
});
type Request = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

/** The same JSON with every object's keys in another order. */
function reorderKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => reorderKeys(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const rotated = entries.map((_, i) => entries[(i + seed) % entries.length]).reverse();
  return Object.fromEntries(rotated.map(([k, v]) => [k, reorderKeys(v, seed + 1)]));
}

const unique = (ids: string[]) => [...new Set(ids)];

function isSubsequence(items: unknown[], of: unknown[]): boolean {
  let at = 0;
  for (const item of items) {
    while (at < of.length && of[at] !== item) at++;
    if (at++ >= of.length) return false;
  }
  return true;
}

describe('stability (property-based)', () => {
  it('gives byte-identical results for the same request, reviewed twice or by two engines', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const engine = createReviewEngine({}, { clock });
        const first = JSON.stringify(await engine.review(request));
        expect(JSON.stringify(await engine.review(request))).toBe(first);
        expect(await bytes(structuredClone(request))).toBe(first);
      }),
      { numRuns: 150 },
    );
  });

  it('gives byte-identical results whatever order the request keys were written in', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, fc.nat(10), async (request, seed) => {
        expect(await bytes(reorderKeys(request, seed))).toBe(await bytes(request));
      }),
      { numRuns: 150 },
    );
  });

  it('lists maps in input order and findings in check order, then claim order', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const r: ReviewResult = await review(request);
        const claimIds = unique(request.artifact.claims.map((c) => c.id));
        expect(Object.keys(r.claim_gaps)).toEqual(claimIds);
        expect(Object.keys(r.source_tiers)).toEqual(
          unique(request.artifact.sources.map((s) => s.id)),
        );
        expect(Object.keys(r.claim_verdicts)).toEqual(
          claimIds.filter((id) => id in r.claim_verdicts),
        );
        const kinds = r.findings.map((f) => CHECK_KINDS.indexOf(f.check_kind));
        expect(kinds).toEqual([...kinds].sort((a, b) => a - b));
        for (const kind of CHECK_KINDS) {
          const flagged = r.findings.filter((f) => f.check_kind === kind).map((f) => f.claim_id);
          expect(
            isSubsequence(
              flagged,
              request.artifact.claims.map((c) => c.id),
            ),
          ).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });
});

/** Changes that leave the canonical request as it was. */
const sameReview: Array<[string, (r: Request) => unknown]> = [
  ['keys reordered', (r) => reorderKeys(r, 3)],
  [
    'an unknown field added',
    (r) => ({ ...r, artifact: { ...r.artifact, colour: 'red' }, extra: 1 }),
  ],
  ['a dry run', (r) => ({ ...r, options: { ...r.options, dry_run: true } })],
  [
    'a replay time',
    (r) => ({ ...r, options: { ...r.options, reviewed_at: '2030-01-01T00:00:00Z' } }),
  ],
  [
    'the default budget spelled out',
    (r) => ({ ...r, options: { ...r.options, budget: { max_llm_calls: '3', max_tokens: 6000 } } }),
  ],
  [
    'a budget above the configured ceiling',
    (r) => ({ ...r, options: { ...r.options, budget: { max_tokens: 99999 } } }),
  ],
  ['an empty question', (r) => ({ ...r, artifact: { ...r.artifact, question: '' } })],
  ['the flat form', (r) => ({ ...r.artifact, options: r.options })],
];

/** Changes to what is reviewed or how. */
const otherReview: Array<[string, (r: Request) => unknown]> = [
  [
    'another artifact id',
    (r) => ({ ...r, artifact: { ...r.artifact, artifact_id: `${r.artifact.artifact_id}-x` } }),
  ],
  [
    'another answer text',
    (r) => ({ ...r, artifact: { ...r.artifact, answer_text: `${r.artifact.answer_text} More.` } }),
  ],
  ['a question', (r) => ({ ...r, artifact: { ...r.artifact, question: 'Why?' } })],
  [
    'one more claim',
    (r) => ({
      ...r,
      artifact: { ...r.artifact, claims: [...r.artifact.claims, { id: 'new', text: 'New.' }] },
    }),
  ],
  [
    'one more source',
    (r) => ({ ...r, artifact: { ...r.artifact, sources: [...r.artifact.sources, { id: 'new' }] } }),
  ],
  ['metadata', (r) => ({ ...r, artifact: { ...r.artifact, metadata: { k: 'v' } } })],
  ['a lower budget', (r) => ({ ...r, options: { ...r.options, budget: { max_llm_calls: 1 } } })],
  ['tier refinement asked for', (r) => ({ ...r, options: { ...r.options, label_via_llm: true } })],
  [
    'another profile',
    (r) => ({
      ...r,
      options: { profile_key: r.options.profile_key === 'legal' ? 'finance' : 'legal' },
    }),
  ],
];

describe('review id (property-based)', () => {
  const idOf = async (request: unknown, config: EngineConfig = {}) =>
    (await review(request, config)).review_id;

  it.each(sameReview)('stays the same for %s', async (_name, change) => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        expect(await idOf(change(request))).toBe(await idOf(request));
      }),
      { numRuns: 40 },
    );
  });

  it.each(otherReview)('changes for %s', async (_name, change) => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        expect(await idOf(change(request))).not.toBe(await idOf(request));
      }),
      { numRuns: 40 },
    );
  });

  it('changes when the profile behind the same key changes', async () => {
    const stricter: EngineConfig = {
      profiles: { default: { checks: { red_flag: { keywords: ['emergency', 'scam'] } } } },
    };
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const onDefault = { ...request, options: { profile_key: 'default' } };
        expect(await idOf(onDefault, stricter)).not.toBe(await idOf(onDefault));
        const elsewhere = { ...request, options: { profile_key: 'medical' } };
        expect(await idOf(elsewhere, stricter)).toBe(await idOf(elsewhere));
      }),
      { numRuns: 40 },
    );
  });

  it('is equal for two requests exactly when their canonical forms are equal', async () => {
    const canonical = (r: { artifact: unknown; options: { profile_key: string } }) =>
      canonicalJson({ artifact: r.artifact, profile: r.options.profile_key });
    // A small space, so equal pairs come up often.
    const tinyArb = fc.record({
      artifact: fc.record({
        artifact_id: fc.constantFrom('a', 'b'),
        answer_text: fc.constant('x'),
        claims: fc.array(
          fc.record({ id: fc.constantFrom('1', '2'), text: fc.constantFrom('t', 'Always.') }),
          { maxLength: 2 },
        ),
        sources: fc.constant([]),
      }),
      options: fc.record({ profile_key: fc.constantFrom('default', 'legal') }),
    });
    await fc.assert(
      fc.asyncProperty(tinyArb, tinyArb, async (a, b) => {
        expect((await idOf(a)) === (await idOf(b))).toBe(canonical(a) === canonical(b));
      }),
      { numRuns: 200 },
    );
  });
});
