import fc from 'fast-check';
import { canonicalJson } from './canonical';
import { createReviewEngine, ReviewEngine } from './engine';
import { EvidenceError } from './errors';
import { BUILTIN_PROFILES } from './profiles';
import { parseReviewRequest } from './request';

const fixedNow = () => new Date('2026-11-22T10:00:00.000Z');
const engine = (config = {}) => createReviewEngine(config, { now: fixedNow, monotonicMs: () => 0 });

const artifact = (claims: unknown[], sources: unknown[] = [], extra: Record<string, unknown> = {}) => ({
  artifact_id: 'a-1',
  answer_text: 'The answer.',
  claims,
  sources,
  ...extra,
});

async function validationDetails(p: Promise<unknown>): Promise<Array<{ path: string; message: string }>> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(EvidenceError);
    expect((e as EvidenceError).status).toBe(422);
    return (e as EvidenceError).details;
  }
  throw new Error('expected a validation error');
}

describe('request validation', () => {
  it('lists every problem with its field path', async () => {
    const details = await validationDetails(
      engine().review({
        artifact: {
          artifact_id: '',
          claims: [{ id: 7, text: 'x', assertiveness: 'certain', source_ids: ['', 's'] }, 'nope'],
          sources: [{ id: 's', url: 5 }],
          metadata: [1],
        },
        options: { dry_run: 'yes', budget: { max_tokens: -1 } },
      }),
    );
    const paths = details.map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'artifact.artifact_id',
        'artifact.answer_text',
        'artifact.claims.0.id',
        'artifact.claims.0.assertiveness',
        'artifact.claims.0.source_ids.0',
        'artifact.claims.1',
        'artifact.sources.0.url',
        'artifact.metadata',
        'options.dry_run',
        'options.budget.max_tokens',
      ]),
    );
    expect(details.find((d) => d.path === 'artifact.artifact_id')!.message).toBe('Expected non-empty string at [artifact.artifact_id].');
  });

  it('accepts a flat artifact, defaults and the declaredTier alias', () => {
    const r = parseReviewRequest({ ...artifact([{ id: 'c', text: 't' }], [{ id: 's', declaredTier: 'news' }]), question: '', options: { budget: { max_llm_calls: '2' } } });
    expect(r.artifact.question).toBeNull();
    expect(r.artifact.claims[0]).toMatchObject({ assertiveness: 'likely', source_ids: [] });
    expect(r.artifact.sources[0].declared_tier).toBe('news');
    expect(r.options).toMatchObject({ profile_key: 'default', dry_run: false, label_via_llm: false, budget: { max_llm_calls: 2, max_tokens: 6000, max_heavy_checks: 8, max_wall_seconds: 30 } });
  });

  it('refuses null or a map where a list belongs', async () => {
    const details = await validationDetails(engine().review({ artifact_id: 'a', answer_text: 'b', claims: null, sources: { a: 1 } }));
    expect(details.map((d) => d.path)).toEqual(['claims', 'sources']);
  });

  it('answers 404 for an unknown profile', async () => {
    await expect(engine().review({ ...artifact([]), options: { profile_key: 'astrology' } })).rejects.toMatchObject({ code: 'unknown_profile', status: 404 });
  });
});

describe('tier labeling (first rule that matches)', () => {
  const e = engine({ tier_hints: { 'nih.gov': 'official', '*.example.org': 'blog', 'ghost.test': 'news' } });
  const tier = (source: Record<string, unknown>) => e.labelTier({ id: 's', ...source }).tier;

  it('uses a declared tier, and turns an unknown one into unverified', () => {
    expect(tier({ declared_tier: ' guideline ', url: 'https://arxiv.org/abs/1' })).toBe('guideline');
    expect(tier({ declared_tier: 'gospel' })).toBe('unverified');
  });

  it('applies domain hints to the host and its subdomains, in order', () => {
    expect(tier({ url: 'https://www.nih.gov/x' })).toBe('official');
    expect(tier({ url: 'https://example.org/x' })).toBe('blog');
    expect(tier({ url: 'https://notnih.gov/x' })).toBe('unverified');
    expect(tier({ url: 'nih.gov/x' })).toBe('unverified');
  });

  it('labels arXiv as preprint even with a DOI, and a DOI anywhere as peer-reviewed', () => {
    expect(tier({ url: 'https://export.arxiv.org/abs/1', title: 'doi 10.1000/xyz' })).toBe('preprint');
    expect(tier({ url: 'https://journal.test/a', snippet: 'See DOI:10.12345/ABC.9' })).toBe('peer_reviewed');
    expect(tier({ metadata: { doi: '10.5555/12345678' } })).toBe('peer_reviewed');
    expect(tier({ title: 'version 10.1/x' })).toBe('unverified');
  });

  it('refuses a hint naming an unconfigured tier at construction', () => {
    expect(() => engine({ tier_hints: { 'x.test': 'ghost' } })).toThrow(/tier_hints.x.test/);
  });
});

describe('evidence_strength and the gap g(c)', () => {
  it.each(BUILTIN_PROFILES.map((p) => [p.key, p] as const))('uses the %s thresholds', async (key, profile) => {
    const e = engine();
    for (const assertiveness of ['tentative', 'likely', 'definitive'] as const) {
      const required = e.tiers.get(profile.min_tier[assertiveness])!;
      const r = await e.review({ ...artifact([{ id: 'c', text: 'plain words', assertiveness, source_ids: ['s'] }], [{ id: 's', declared_tier: 'news' }]), options: { profile_key: key } });
      expect(r.claim_gaps['c']).toBe(Math.max(0, required.rank - 45));
      const es = r.findings.filter((f) => f.check_kind === 'evidence_strength');
      expect(es).toHaveLength(required.rank > 45 ? 1 : 0);
      if (es.length) {
        expect(es[0]).toMatchObject({
          verdict: profile.checks.evidence_strength!.verdict,
          reason: `Claim requires evidence tier [${required.key}] but best source tier is [news].`,
          confidence: 0.85,
          cost_class: 'cheap',
          evidence: { required_tier: required.key, best_tier: 'news', gap: required.rank - 45 },
        });
      }
    }
  });

  it('takes the best cited source, skips unknown ids but lists them, and lets the last duplicate win', async () => {
    const r = await engine().review(
      artifact(
        [{ id: 'c', text: 'x', assertiveness: 'definitive', source_ids: ['blog', 'missing', 'dup'] }],
        [{ id: 'blog', declared_tier: 'blog' }, { id: 'dup', declared_tier: 'guideline' }, { id: 'dup', declared_tier: 'news' }],
      ),
    );
    expect(r.source_tiers).toEqual({ blog: 'blog', dup: 'news' });
    expect(r.findings[0].evidence).toMatchObject({ best_tier: 'news', source_ids: ['blog', 'missing', 'dup'] });
    expect(r.claim_gaps['c']).toBe(80 - 45);
  });

  it('raises a configured keep verdict to soften', async () => {
    const e = engine({ profiles: { default: { checks: { ...BUILTIN_PROFILES[0].checks, evidence_strength: { verdict: 'keep' } } } } });
    const r = await e.review(artifact([{ id: 'c', text: 'x' }]));
    expect(r.findings[0].verdict).toBe('soften');
  });
});

describe('keyword checks', () => {
  it('matches whole words only, case-insensitively, first keyword in list order, one per claim per check', async () => {
    const r = await engine().review(
      artifact(
        [
          { id: 'a', text: 'This ALWAYS works and never fails.', source_ids: ['g'] },
          { id: 'b', text: 'It improves outcomes.', source_ids: ['g'] },
          { id: 'c', text: 'A life-threatening, emergency case.', source_ids: ['g'] },
          { id: 'd', text: 'always_on mode', source_ids: ['g'] },
        ],
        [{ id: 'g', declared_tier: 'guideline' }],
      ),
    );
    const byClaim = (id: string) => r.findings.filter((f) => f.claim_id === id).map((f) => [f.check_kind, f.evidence['keyword']]);
    expect(byClaim('a')).toEqual([['over_generalization', 'always']]);
    expect(byClaim('b')).toEqual([]);
    expect(byClaim('c')).toEqual([['red_flag', 'emergency']]);
    expect(byClaim('d')).toEqual([]);
    expect(r.findings.find((f) => f.claim_id === 'a')).toMatchObject({ reason: 'Claim matched over_generalization keyword [always].', confidence: 0.7, verdict: 'soften' });
  });

  it('runs only the checks the profile enables', async () => {
    const r = await engine().review({ ...artifact([{ id: 'a', text: 'Not for children; contraindicated.', assertiveness: 'tentative', source_ids: ['g'] }], [{ id: 'g', declared_tier: 'guideline' }]), options: { profile_key: 'engineering' } });
    expect(r.findings).toEqual([]);
    const d = await engine().review(artifact([{ id: 'a', text: 'Not for children; contraindicated.', source_ids: ['g'] }], [{ id: 'g', declared_tier: 'guideline' }]));
    expect(d.findings.map((f) => f.check_kind)).toEqual(['special_population', 'contraindication']);
  });
});

describe('reduction, verdict and score', () => {
  it('maps claims to their worst finding in input order, omits clean claims, and scores the worst severity', async () => {
    const r = await engine().review(
      artifact(
        [
          { id: 'z', text: 'A fraud scheme.', source_ids: ['g'] },
          { id: 'clean', text: 'Plain.', source_ids: ['g'] },
          { id: 'a', text: 'It always helps.', source_ids: [] },
        ],
        [{ id: 'g', declared_tier: 'guideline' }],
      ),
    );
    expect(Object.keys(r.claim_verdicts)).toEqual(['z', 'a']);
    expect(r.claim_verdicts).toEqual({ z: 'remove', a: 'soften' });
    expect(r.verdict).toBe('remove');
    expect(r.risk_score).toBe(1);
  });

  it('keeps a clean review at keep with score 0', async () => {
    const r = await engine().review(artifact([{ id: 'c', text: 'Plain.', source_ids: ['g'] }], [{ id: 'g', declared_tier: 'guideline' }]));
    expect(r).toMatchObject({ verdict: 'keep', risk_score: 0, findings: [], claim_verdicts: {}, claim_gaps: { c: 0 } });
  });
});

describe('profiles and taxonomy', () => {
  it('validates profile config at construction, naming the key', () => {
    const base = BUILTIN_PROFILES[0];
    expect(() => engine({ profiles: { default: { min_tier: { tentative: 'blog', likely: 'official' } as never } } })).toThrow(/profiles.default.min_tier.definitive/);
    expect(() => engine({ profiles: { default: { enabled_checks: 'all' as never } } })).toThrow(/enabled_checks must be a list/);
    expect(() => engine({ profiles: { default: { checks: { ...base.checks, scope: { verdict: 'keep' } } as never } } })).toThrow(/checks.scope/);
    expect(() => engine({ profiles: { default: { checks: { ...base.checks, red_flag: { verdict: 'remove', keywords: [] } } } } })).toThrow(/red_flag.keywords/);
    expect(() => engine({ profiles: { default: { checks: { ...base.checks, red_flag: { verdict: 'nuke' as never, keywords: ['x'] } } } } })).toThrow(/invalid verdict/);
    expect(() => engine({ tiers: { official: { rank: 101 } } })).toThrow(/tiers.official.rank/);
  });

  it('lists profiles by key and the taxonomy in its documented order', () => {
    const e = engine({ tiers: { vendor_doc: { rank: 50, label: 'Vendor docs' } } });
    expect(Object.keys(e.listProfiles().profiles)).toEqual(['default', 'engineering', 'finance', 'legal', 'medical']);
    const t = e.taxonomy();
    expect(Object.keys(t.tiers)).toEqual(['guideline', 'peer_reviewed', 'official', 'preprint', 'vendor_doc', 'news', 'blog', 'search_hint', 'unverified']);
    expect(t.tiers['vendor_doc']).toEqual({ key: 'vendor_doc', rank: 50, label: 'Vendor docs', builtin: false });
    expect(t.risk_verdicts).toEqual([
      { key: 'keep', severity: 0 },
      { key: 'soften', severity: 1 },
      { key: 'flag_for_human_review', severity: 2 },
      { key: 'remove', severity: 3 },
    ]);
    expect(() => e.getProfile('nope')).toThrow(EvidenceError);
  });
});

describe('stability', () => {
  const claimArb = fc.record({
    id: fc.stringMatching(/^[a-z]{1,6}$/),
    text: fc.constantFrom('Always works.', 'Plain statement.', 'Risk of fraud.', 'For children.', 'Regardless of dose.'),
    assertiveness: fc.constantFrom('definitive', 'likely', 'tentative'),
    source_ids: fc.array(fc.constantFrom('s1', 's2', 's3', 'nope'), { maxLength: 3 }),
  });
  const sourceArb = fc.record({ id: fc.constantFrom('s1', 's2', 's3'), declared_tier: fc.constantFrom('guideline', 'news', 'blog', 'peer_reviewed') });
  const requestArb = fc.record({
    claims: fc.array(claimArb, { maxLength: 6 }),
    sources: fc.array(sourceArb, { maxLength: 4 }),
    profile: fc.constantFrom('default', 'engineering', 'finance', 'legal', 'medical'),
  });

  it('gives byte-identical results for the same request, whatever the key order', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async ({ claims, sources, profile }) => {
        const a = await engine().review({ artifact: artifact(claims, sources), options: { profile_key: profile } });
        const reordered = JSON.parse(canonicalJson({ options: { profile_key: profile }, artifact: artifact(claims, sources) }));
        const b = await engine().review(reordered);
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }),
      { numRuns: 60 },
    );
  });

  it('changes the review id exactly when the request or the profile changes', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, fc.string({ minLength: 1, maxLength: 8 }), async ({ claims, sources, profile }, suffix) => {
        const e: ReviewEngine = engine();
        const base = await e.review({ artifact: artifact(claims, sources), options: { profile_key: profile } });
        const same = await e.review({ artifact: artifact(claims, sources), options: { profile_key: profile, dry_run: true, reviewed_at: '2030-01-01T00:00:00Z' } });
        expect(same.review_id).toBe(base.review_id);
        const changed = await e.review({ artifact: artifact(claims, sources, { question: `q${suffix}` }), options: { profile_key: profile } });
        expect(changed.review_id).not.toBe(base.review_id);
        const otherProfile = await e.review({ artifact: artifact(claims, sources), options: { profile_key: profile === 'legal' ? 'medical' : 'legal' } });
        expect(otherProfile.review_id).not.toBe(base.review_id);
        expect(base.review_id).toMatch(/^rev_[0-9a-f]{32}$/);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps findings in check order, then claim input order, and takes time from the clock or the replay option', async () => {
    const r = await engine().review({ ...artifact([{ id: 'b', text: 'Always, for children.' }, { id: 'a', text: 'Never.' }]), options: { reviewed_at: '2025-01-02T03:04:05Z' } });
    expect(r.findings.map((f) => `${f.check_kind}:${f.claim_id}`)).toEqual([
      'evidence_strength:b',
      'evidence_strength:a',
      'over_generalization:b',
      'over_generalization:a',
      'special_population:b',
    ]);
    expect(r.reviewed_at).toBe('2025-01-02T03:04:05.000Z');
    expect((await engine().review(artifact([]))).reviewed_at).toBe('2026-11-22T10:00:00.000Z');
    expect(Object.keys(r)).toEqual(['review_id', 'artifact_id', 'profile_key', 'verdict', 'findings', 'claim_verdicts', 'claim_gaps', 'source_tiers', 'risk_score', 'budget', 'reviewed_at', 'metadata']);
  });
});
