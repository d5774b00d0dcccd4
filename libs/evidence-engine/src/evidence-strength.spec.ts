import { resolveEngineConfig } from './config';
import { evidenceStrength } from './evidence-strength';
import { Assertiveness, Claim } from './types';

/** reference/evidence.md §1.2 and §1.4, written out here rather than read from the code. */
const RANK: Record<string, number> = {
  guideline: 100,
  peer_reviewed: 80,
  official: 70,
  preprint: 65,
  news: 45,
  blog: 30,
  search_hint: 15,
  unverified: 0,
};
const THRESHOLDS: Record<string, Record<Assertiveness, string>> = {
  default: { tentative: 'search_hint', likely: 'official', definitive: 'peer_reviewed' },
  engineering: { tentative: 'blog', likely: 'official', definitive: 'official' },
  finance: { tentative: 'official', likely: 'official', definitive: 'guideline' },
  legal: { tentative: 'official', likely: 'official', definitive: 'guideline' },
  medical: { tentative: 'official', likely: 'peer_reviewed', definitive: 'guideline' },
};
const ES_VERDICT: Record<string, string> = {
  default: 'soften',
  engineering: 'soften',
  finance: 'flag_for_human_review',
  legal: 'flag_for_human_review',
  medical: 'flag_for_human_review',
};

const config = resolveEngineConfig();
const claim = (fields: Partial<Claim> = {}): Claim => ({
  id: 'c',
  text: 'A claim.',
  assertiveness: 'likely',
  source_ids: ['s'],
  metadata: {},
  ...fields,
});
const run = (
  claims: Claim[],
  tiers: Record<string, string>,
  profileKey = 'default',
  enabled = true,
  c = config,
) =>
  evidenceStrength(
    claims,
    new Map(Object.entries(tiers)),
    c.tiers,
    c.profiles.get(profileKey)!,
    enabled,
  );

describe('evidence_strength: g(c) = max(0, t(a,c) − max r(s)) for every profile', () => {
  const cases = Object.entries(THRESHOLDS).flatMap(([profile, levels]) =>
    (Object.keys(levels) as Assertiveness[]).flatMap((a) =>
      Object.keys(RANK).map((tier) => [profile, a, tier] as const),
    ),
  );

  it.each(cases)('%s, %s claim, best source %s', (profile, assertiveness, tier) => {
    const required = THRESHOLDS[profile][assertiveness];
    const gap = Math.max(0, RANK[required] - RANK[tier]);
    const { findings, gaps } = run([claim({ assertiveness })], { s: tier }, profile);
    expect(gaps.get('c')).toBe(gap);
    if (gap === 0) {
      expect(findings).toEqual([]);
      return;
    }
    expect(findings).toEqual([
      {
        check_kind: 'evidence_strength',
        claim_id: 'c',
        verdict: ES_VERDICT[profile],
        reason: `Claim requires evidence tier [${required}] but best source tier is [${tier}].`,
        suggested_rewrite: 'Soften the claim or add stronger supporting evidence.',
        confidence: 0.85,
        cost_class: 'cheap',
        evidence: { required_tier: required, best_tier: tier, gap, source_ids: ['s'] },
      },
    ]);
  });
});

describe('evidence_strength: choosing the best source', () => {
  it('takes the highest-ranked cited source', () => {
    const { gaps, findings } = run(
      [claim({ assertiveness: 'definitive', source_ids: ['b', 'n', 'g'] })],
      {
        b: 'blog',
        n: 'news',
        g: 'guideline',
      },
    );
    expect(gaps.get('c')).toBe(0);
    expect(findings).toEqual([]);
  });

  it('starts from unverified: a claim citing nothing has the full threshold as its gap', () => {
    const { gaps, findings } = run([claim({ source_ids: [] })], {});
    expect(gaps.get('c')).toBe(70);
    expect(findings[0].evidence).toEqual({
      required_tier: 'official',
      best_tier: 'unverified',
      gap: 70,
      source_ids: [],
    });
  });

  it('skips cited ids that match no source, but lists every cited id in the evidence', () => {
    const { findings } = run([claim({ source_ids: ['missing', 'n'] })], { n: 'news' });
    expect(findings[0].evidence).toEqual({
      required_tier: 'official',
      best_tier: 'news',
      gap: 25,
      source_ids: ['missing', 'n'],
    });
  });

  it('keeps the first of equally ranked sources', () => {
    const c = resolveEngineConfig({ tiers: { wire: { rank: 45, label: 'Wire' } } });
    const { findings } = run(
      [claim({ source_ids: ['w', 'n'] })],
      { w: 'wire', n: 'news' },
      'default',
      true,
      c,
    );
    expect(findings[0].evidence['best_tier']).toBe('wire');
  });

  it('uses configured ranks', () => {
    const c = resolveEngineConfig({ tiers: { news: { rank: 75 } } });
    expect(run([claim()], { s: 'news' }, 'default', true, c).gaps.get('c')).toBe(0);
  });

  it('raises a configured keep verdict to soften: an unsupported claim is never simply kept', () => {
    const c = resolveEngineConfig({
      profiles: { default: { checks: { evidence_strength: { verdict: 'keep' } } } },
    });
    expect(run([claim()], { s: 'blog' }, 'default', true, c).findings[0].verdict).toBe('soften');
  });

  it('still computes gaps when the check is disabled, but reports no finding', () => {
    const { gaps, findings } = run([claim()], { s: 'blog' }, 'default', false);
    expect(gaps.get('c')).toBe(40);
    expect(findings).toEqual([]);
  });

  it('gives one finding per claim in input order, and folds a repeated claim id to its largest gap', () => {
    const { gaps, findings } = run(
      [
        claim({ id: 'z', source_ids: ['b'] }),
        claim({ id: 'a', source_ids: ['g'] }),
        claim({ id: 'z', source_ids: [], assertiveness: 'definitive' }),
      ],
      { b: 'blog', g: 'guideline' },
    );
    expect(findings.map((f) => [f.claim_id, f.evidence['gap']])).toEqual([
      ['z', 40],
      ['z', 80],
    ]);
    expect([...gaps]).toEqual([
      ['z', 80],
      ['a', 0],
    ]);
  });
});
