import { createReviewEngine, ReviewEngine } from './engine';
import { EvidenceConfigError, EvidenceError, EvidenceValidationError } from './errors';
import { fixedClock, ReviewLogEntry } from './ports';
import { builtinTaxonomy } from './taxonomy';

const clock = fixedClock('2026-11-22T10:00:00Z');
const engine = (config = {}) => createReviewEngine(config, { clock });

const request = {
  artifact: {
    artifact_id: 'art-1',
    answer_text: 'Aspirin is always safe for children.',
    question: 'Is aspirin safe?',
    claims: [
      {
        id: 'c1',
        text: 'Aspirin is always safe for children.',
        assertiveness: 'definitive',
        source_ids: ['blog', 'nope'],
      },
      {
        id: 'c2',
        text: 'Dosage depends on weight.',
        assertiveness: 'tentative',
        source_ids: ['paper'],
      },
    ],
    sources: [
      { id: 'blog', url: 'https://someblog.test/aspirin', declared_tier: 'blog' },
      { id: 'paper', url: 'https://doi.org/10.1000/abc', title: 'A trial' },
    ],
  },
  options: { profile_key: 'medical' },
};

describe('ReviewEngine.review', () => {
  it('runs labelling, the checks in order, reduction and scoring into one result', async () => {
    const r = await engine().review(request);
    expect(Object.keys(r)).toEqual([
      'review_id',
      'artifact_id',
      'profile_key',
      'verdict',
      'findings',
      'claim_verdicts',
      'claim_gaps',
      'source_tiers',
      'risk_score',
      'budget',
      'reviewed_at',
      'metadata',
    ]);
    expect(r.review_id).toMatch(/^rev_[0-9a-f]{32}$/);
    expect(r).toMatchObject({
      artifact_id: 'art-1',
      profile_key: 'medical',
      verdict: 'flag_for_human_review',
      claim_verdicts: { c1: 'flag_for_human_review' },
      claim_gaps: { c1: 70, c2: 0 },
      source_tiers: {
        blog: { key: 'blog', rank: 30, label: 'Blog', builtin: true },
        paper: { key: 'peer_reviewed', rank: 80, label: 'Peer-reviewed', builtin: true },
      },
      risk_score: 0.6667,
      budget: { llm_calls: 0, tokens: 0, heavy_checks: 0, wall_seconds: 0 },
      reviewed_at: '2026-11-22T10:00:00.000Z',
      metadata: { dry_run: false, heavy_checks_run: false, llm_enabled: false },
    });
    expect(r.findings.map((f) => [f.check_kind, f.claim_id, f.verdict])).toEqual([
      ['evidence_strength', 'c1', 'flag_for_human_review'],
      ['over_generalization', 'c1', 'soften'],
      ['special_population', 'c1', 'flag_for_human_review'],
    ]);
    expect(Object.keys(r.findings[0])).toEqual([
      'check_kind',
      'claim_id',
      'verdict',
      'reason',
      'suggested_rewrite',
      'confidence',
      'cost_class',
      'evidence',
    ]);
    expect(Object.keys(r.findings[0].evidence)).toEqual([
      'required_tier',
      'best_tier',
      'gap',
      'source_ids',
    ]);
  });

  it('keeps ids that are Object.prototype names ("__proto__", "constructor") as ordinary keys of every result map', async () => {
    const withIds = (claim: string, other: string, source: string) =>
      engine().review({
        ...request.artifact,
        claims: [
          { ...request.artifact.claims[0], id: claim, source_ids: [source] },
          { ...request.artifact.claims[1], id: other },
        ],
        sources: [{ ...request.artifact.sources[0], id: source }, request.artifact.sources[1]],
      });
    const plain = await withIds('p', 'k', 's');
    const r = await withIds('__proto__', 'constructor', '__proto__');
    expect(Object.keys(r.claim_verdicts)).toEqual(['__proto__']);
    expect(Object.keys(r.claim_gaps)).toEqual(['__proto__', 'constructor']);
    expect(Object.keys(r.source_tiers)).toEqual(['__proto__', 'paper']);
    expect(Object.getPrototypeOf(r.claim_gaps)).toBe(Object.prototype);
    const json = JSON.parse(JSON.stringify(r));
    expect(Object.keys(json.claim_verdicts)).toEqual(['__proto__']);
    // The same verdicts and gaps as the same review with ordinary ids.
    expect(Object.values(json.claim_gaps)).toEqual(Object.values(plain.claim_gaps));
    expect(Object.values(json.claim_verdicts)).toEqual(Object.values(plain.claim_verdicts));
    expect(r.verdict).toBe(plain.verdict);
  });

  it('never scans the answer text', async () => {
    const r = await engine().review({
      artifact_id: 'a',
      answer_text: 'Always fraud, an emergency for children.',
      claims: [{ id: 'c', text: 'Plain.', source_ids: ['g'] }],
      sources: [{ id: 'g', declared_tier: 'guideline' }],
    });
    expect(r.findings).toEqual([]);
    expect(r).toMatchObject({
      verdict: 'keep',
      risk_score: 0,
      claim_verdicts: {},
      claim_gaps: { c: 0 },
    });
  });

  it('uses the default profile when none is named, or the configured default_profile', async () => {
    const flat = { ...request.artifact };
    expect((await engine().review(flat)).profile_key).toBe('default');
    expect((await engine({ default_profile: 'legal' }).review(flat)).profile_key).toBe('legal');
  });

  it('answers unknown_profile (404) for a profile it does not have', async () => {
    await expect(
      engine().review({ ...request, options: { profile_key: 'astrology' } }),
    ).rejects.toMatchObject({
      code: 'unknown_profile',
      status: 404,
      message: 'Unknown evidence risk profile [astrology].',
    });
  });

  it('refuses an invalid request with every problem listed', async () => {
    await expect(engine().review({ artifact_id: '', claims: [{}] })).rejects.toBeInstanceOf(
      EvidenceValidationError,
    );
  });

  it('takes reviewed_at from the clock, or from the request when replaying', async () => {
    expect((await engine().review(request)).reviewed_at).toBe('2026-11-22T10:00:00.000Z');
    const replay = await engine().review({
      ...request,
      options: { ...request.options, reviewed_at: '2025-01-02T03:04:05Z' },
    });
    expect(replay.reviewed_at).toBe('2025-01-02T03:04:05.000Z');
  });

  it('reports wall seconds from the monotonic clock', async () => {
    let ms = 0;
    const ticking = createReviewEngine(
      {},
      { clock: { now: () => new Date(0), monotonicMs: () => (ms += 700) } },
    );
    expect((await ticking.review(request)).budget.wall_seconds).toBe(0);
    const e = createReviewEngine(
      {},
      { clock: { now: () => new Date(0), monotonicMs: () => (ms += 2500) } },
    );
    expect((await e.review(request)).budget.wall_seconds).toBe(2);
  });
});

describe('ReviewEngine and the review log port', () => {
  it('appends the request and result, except for dry runs', async () => {
    const entries: ReviewLogEntry[] = [];
    const e = createReviewEngine(
      {},
      { clock, log: { append: async (entry) => void entries.push(entry) } },
    );
    const result = await e.review(request);
    await e.review({ ...request, options: { ...request.options, dry_run: true } });
    expect(entries).toHaveLength(1);
    expect(entries[0].result).toBe(result);
    expect(entries[0].artifact.artifact_id).toBe('art-1');
    expect(entries[0].options).toMatchObject({ profile_key: 'medical', dry_run: false });
  });

  it('fails the review when the append fails', async () => {
    const e = createReviewEngine(
      {},
      { log: { append: () => Promise.reject(new Error('disk full')) } },
    );
    await expect(e.review(request)).rejects.toThrow('disk full');
  });
});

describe('ReviewEngine: construction and listings', () => {
  it('refuses a bad config at construction, naming the key', () => {
    expect(() => engine({ tiers: { official: { rank: 101 } } })).toThrow(EvidenceConfigError);
    expect(() => engine({ tier_hints: { 'x.test': 'ghost' } })).toThrow(/tier_hints\.x\.test/);
  });

  it('lists profiles by key with their summary', () => {
    const { profiles } = engine().listProfiles();
    expect(Object.keys(profiles)).toEqual([
      'default',
      'engineering',
      'finance',
      'legal',
      'medical',
    ]);
    expect(profiles['engineering']).toEqual({
      key: 'engineering',
      label: 'Engineering',
      description: 'Technical answers: compatibility, operations and security claims.',
      enabled_checks: [
        'evidence_strength',
        'over_generalization',
        'boundary_condition',
        'red_flag',
      ],
      min_tier: { tentative: 'blog', likely: 'official', definitive: 'official' },
    });
  });

  it('shows one profile with its checks, or unknown_profile', () => {
    const { profile } = engine().getProfile('legal');
    expect(Object.keys(profile.checks)).toEqual([
      'evidence_strength',
      'over_generalization',
      'boundary_condition',
      'red_flag',
    ]);
    expect(profile.checks.red_flag).toEqual({
      verdict: 'remove',
      keywords: ['evade regulation', 'hide evidence', 'illegal workaround', 'circumvent law'],
    });
    expect(() => engine().getProfile('nope')).toThrow(EvidenceError);
  });

  it('serves the taxonomy with configured tiers sorted by rank, then key', () => {
    const t = engine({ tiers: { vendor_doc: { rank: 45, label: 'Vendor docs' } } }).taxonomy();
    expect(Object.keys(t.tiers)).toEqual([
      'guideline',
      'peer_reviewed',
      'official',
      'preprint',
      'news',
      'vendor_doc',
      'blog',
      'search_hint',
      'unverified',
    ]);
    expect(t.tiers['vendor_doc']).toEqual({
      key: 'vendor_doc',
      rank: 45,
      label: 'Vendor docs',
      builtin: false,
    });
    expect(t.risk_checks).toEqual([
      'evidence_strength',
      'over_generalization',
      'special_population',
      'contraindication',
      'boundary_condition',
      'red_flag',
    ]);
    expect(t.risk_verdicts).toEqual([
      { key: 'keep', severity: 0 },
      { key: 'soften', severity: 1 },
      { key: 'flag_for_human_review', severity: 2 },
      { key: 'remove', severity: 3 },
    ]);
    expect(t.claim_assertiveness).toEqual(['definitive', 'likely', 'tentative']);
    expect(JSON.stringify(engine().taxonomy())).toBe(JSON.stringify(builtinTaxonomy()));
  });
});

describe('ReviewEngine.labelTier', () => {
  const e: ReviewEngine = engine({ tier_hints: { 'nih.gov': 'official' } });

  it('labels one source by the engine rules', () => {
    expect(e.labelTier({ id: 's', url: 'https://www.nih.gov/x' })).toEqual({ tier: 'official' });
    expect(e.labelTier({ id: 's', declaredTier: 'news' })).toEqual({ tier: 'news' });
    expect(e.explainTier({ id: 's', title: 'doi 10.1234/x' })).toEqual({
      tier: 'peer_reviewed',
      rule: 'doi',
    });
  });

  it('validates the source like a review request does', () => {
    expect(() => e.labelTier({ url: 5 })).toThrow(
      expect.objectContaining({
        details: [
          { path: 'id', message: 'Expected non-empty string at [id].' },
          { path: 'url', message: 'Expected string or null at [url].' },
        ],
      }),
    );
    expect(() => e.labelTier(null)).toThrow(EvidenceValidationError);
  });
});
