import { DEFAULT_BUDGET, EngineConfig, resolveEngineConfig } from './config';
import { EvidenceConfigError, FieldProblem } from './errors';
import { BUILTIN_PROFILES } from './profiles';
import { BUILTIN_TIERS } from './tiers';

function configProblems(config: unknown): FieldProblem[] {
  try {
    resolveEngineConfig(config);
  } catch (e) {
    expect(e).toBeInstanceOf(EvidenceConfigError);
    expect(e).toMatchObject({ code: 'invalid_config', status: 500 });
    return (e as EvidenceConfigError).details;
  }
  throw new Error('expected the config to be refused');
}

const paths = (config: unknown) => configProblems(config).map((p) => p.path);
const profiles = (p: unknown) => ({ profiles: p }) as EngineConfig;

describe('resolveEngineConfig: defaults', () => {
  it('gives the built-in tiers and profiles, the default budget and no LLM', () => {
    const c = resolveEngineConfig();
    expect([...c.tiers.keys()]).toEqual([
      'guideline',
      'peer_reviewed',
      'official',
      'preprint',
      'news',
      'blog',
      'search_hint',
      'unverified',
    ]);
    expect([...c.profiles.keys()]).toEqual([
      'default',
      'engineering',
      'finance',
      'legal',
      'medical',
    ]);
    expect(c.budget).toEqual({
      max_llm_calls: 3,
      max_tokens: 6000,
      max_heavy_checks: 8,
      max_wall_seconds: 30,
    });
    expect(c.budget).toEqual(DEFAULT_BUDGET);
    expect(c).toMatchObject({ llmEnabled: false, defaultProfile: 'default', hints: [] });
  });
});

describe('resolveEngineConfig: tiers', () => {
  it('changes a built-in rank or label and adds custom tiers, listed by rank then key', () => {
    const c = resolveEngineConfig({
      tiers: {
        news: { rank: 50 },
        blog: { label: 'Weblog' },
        vendor_doc: { rank: 50, label: 'Vendor docs' },
      },
    });
    expect([...c.tiers.values()].slice(4, 7)).toEqual([
      { key: 'news', rank: 50, label: 'News', builtin: true },
      { key: 'vendor_doc', rank: 50, label: 'Vendor docs', builtin: false },
      { key: 'blog', rank: 30, label: 'Weblog', builtin: true },
    ]);
  });

  it.each([
    [{ official: { rank: 101 } }, 'tiers.official.rank'],
    [{ official: { rank: -1 } }, 'tiers.official.rank'],
    [{ official: { rank: 7.5 } }, 'tiers.official.rank'],
    [{ official: { rank: null } }, 'tiers.official.rank'],
    [{ official: { label: null } }, 'tiers.official.label'],
    [{ official: { label: ' ' } }, 'tiers.official.label'],
    [{ brand_new: { rank: 20 } }, 'tiers.brand_new.label'],
    [{ brand_new: { label: 'New' } }, 'tiers.brand_new.rank'],
    [{ 'Bad Key': { rank: 1, label: 'x' } }, 'tiers.Bad Key'],
    [{ official: { rank: 70, colour: 'red' } }, 'tiers.official.colour'],
    [{ official: 70 }, 'tiers.official'],
  ])('refuses %j naming %s', (tiers, path) => {
    expect(paths({ tiers })).toEqual([path]);
  });

  it('says what is wrong with a rank', () => {
    expect(configProblems({ tiers: { official: { rank: 101 } } })[0].message).toBe(
      'Config [tiers.official.rank] must be a whole number from 0 to 100.',
    );
  });
});

describe('resolveEngineConfig: tier hints', () => {
  it('keeps hints in config order, lowercased, with *. and a trailing dot removed', () => {
    const c = resolveEngineConfig({
      tier_hints: { 'NIH.gov': 'official', '*.example.org': 'blog', 'who.int.': 'guideline' },
    });
    expect(c.hints).toEqual([
      { domain: 'nih.gov', tier: 'official' },
      { domain: 'example.org', tier: 'blog' },
      { domain: 'who.int', tier: 'guideline' },
    ]);
  });

  it('refuses a hint naming an unconfigured tier, and one that is not a domain', () => {
    expect(
      configProblems({ tier_hints: { 'x.test': 'ghost', 'not a domain': 'news', 'y.test': 3 } }),
    ).toEqual([
      {
        path: 'tier_hints.x.test',
        message: 'Config [tier_hints.x.test]: evidence tier [ghost] is not configured.',
      },
      {
        path: 'tier_hints.not a domain',
        message: 'Config [tier_hints.not a domain]: "not a domain" is not a domain.',
      },
      {
        path: 'tier_hints.y.test',
        message: 'Config [tier_hints.y.test]: evidence tier [3] is not configured.',
      },
    ]);
  });

  it('accepts a hint naming a custom tier', () => {
    const c = resolveEngineConfig({
      tiers: { vendor: { rank: 55, label: 'Vendor' } },
      tier_hints: { 'v.test': 'vendor' },
    });
    expect(c.hints).toEqual([{ domain: 'v.test', tier: 'vendor' }]);
  });
});

describe('resolveEngineConfig: profiles', () => {
  it('merges an override per check: new keywords keep the built-in verdict, other checks stay', () => {
    const c = resolveEngineConfig(
      profiles({ default: { checks: { red_flag: { keywords: ['scam'] } } } }),
    );
    const p = c.profiles.get('default')!;
    expect(p.checks.red_flag).toEqual({ verdict: 'remove', keywords: ['scam'] });
    expect(p.checks.over_generalization?.keywords).toContain('always');
  });

  it('overrides thresholds, enabled checks (kept in check order), label and description', () => {
    const c = resolveEngineConfig(
      profiles({
        engineering: {
          label: 'Eng',
          description: '',
          min_tier: { tentative: 'news', likely: 'news', definitive: 'guideline' },
          enabled_checks: ['red_flag', 'evidence_strength'],
        },
      }),
    );
    expect(c.profiles.get('engineering')).toMatchObject({
      label: 'Eng',
      description: '',
      min_tier: { tentative: 'news', likely: 'news', definitive: 'guideline' },
      enabled_checks: ['evidence_strength', 'red_flag'],
    });
  });

  it('adds a new profile; an enabled check with no verdict set flags for human review', () => {
    const c = resolveEngineConfig(
      profiles({
        journalism: {
          min_tier: { tentative: 'blog', likely: 'news', definitive: 'official' },
          enabled_checks: ['evidence_strength', 'red_flag'],
          checks: { red_flag: { keywords: ['leak'] } },
        },
      }),
    );
    expect([...c.profiles.keys()]).toEqual([
      'default',
      'engineering',
      'finance',
      'journalism',
      'legal',
      'medical',
    ]);
    expect(c.profiles.get('journalism')).toEqual({
      key: 'journalism',
      label: 'journalism',
      description: '',
      min_tier: { tentative: 'blog', likely: 'news', definitive: 'official' },
      enabled_checks: ['evidence_strength', 'red_flag'],
      checks: {
        red_flag: { verdict: 'flag_for_human_review', keywords: ['leak'] },
        evidence_strength: { verdict: 'flag_for_human_review' },
      },
    });
  });

  it.each([
    [
      'a non-list enabled_checks',
      { default: { enabled_checks: 'all' } },
      ['profiles.default.enabled_checks'],
    ],
    [
      'an unknown enabled check',
      { default: { enabled_checks: ['scope'] } },
      ['profiles.default.enabled_checks.0'],
    ],
    [
      'a min_tier missing a level',
      { default: { min_tier: { tentative: 'blog', likely: 'official' } } },
      ['profiles.default.min_tier.definitive'],
    ],
    [
      'a numeric min_tier (the profiles guide is wrong)',
      { default: { min_tier: { tentative: 15, likely: 'official', definitive: 'guideline' } } },
      ['profiles.default.min_tier.tentative'],
    ],
    [
      'a min_tier naming an unconfigured tier',
      {
        default: { min_tier: { tentative: 'rumour', likely: 'official', definitive: 'guideline' } },
      },
      ['profiles.default.min_tier.tentative'],
    ],
    [
      'an unknown level under min_tier',
      {
        default: {
          min_tier: {
            tentative: 'blog',
            likely: 'official',
            definitive: 'guideline',
            certain: 'guideline',
          },
        },
      },
      ['profiles.default.min_tier.certain'],
    ],
    [
      'an unknown key under checks',
      { default: { checks: { scope: { verdict: 'keep' } } } },
      ['profiles.default.checks.scope'],
    ],
    [
      'an enabled keyword check with no keywords',
      { default: { checks: { red_flag: { keywords: [] } } } },
      ['profiles.default.checks.red_flag.keywords'],
    ],
    [
      'malformed keywords',
      { default: { checks: { red_flag: { keywords: ['ok', '', ' padded', 4] } } } },
      [
        'profiles.default.checks.red_flag.keywords.1',
        'profiles.default.checks.red_flag.keywords.2',
        'profiles.default.checks.red_flag.keywords.3',
      ],
    ],
    [
      'keywords that are not a list',
      { default: { checks: { red_flag: { keywords: 'fraud' } } } },
      ['profiles.default.checks.red_flag.keywords'],
    ],
    [
      'a null verdict',
      { default: { checks: { red_flag: { verdict: null } } } },
      ['profiles.default.checks.red_flag.verdict'],
    ],
    [
      'an invalid verdict',
      { default: { checks: { red_flag: { verdict: 'nuke' } } } },
      ['profiles.default.checks.red_flag.verdict'],
    ],
    [
      'keywords on evidence_strength',
      { default: { checks: { evidence_strength: { keywords: ['x'] } } } },
      ['profiles.default.checks.evidence_strength.keywords'],
    ],
    [
      'a red_flags settings key (the docs are wrong)',
      { default: { red_flags: ['x'] } },
      ['profiles.default.red_flags'],
    ],
    [
      'a new profile without thresholds or checks',
      { mine: {} },
      ['profiles.mine.min_tier', 'profiles.mine.enabled_checks'],
    ],
    [
      'a newly enabled keyword check without keywords',
      { engineering: { enabled_checks: ['special_population'] } },
      ['profiles.engineering.checks.special_population.keywords'],
    ],
    ['a profile that is not an object', { default: 'strict' }, ['profiles.default']],
    ['an upper-case profile key', { Strict: {} }, ['profiles.Strict']],
    ['an empty label', { default: { label: '' } }, ['profiles.default.label']],
  ])('refuses %s', (_name, p, expected) => {
    expect(paths(profiles(p))).toEqual(expected);
  });

  it('says which keyword is malformed', () => {
    expect(
      configProblems(profiles({ default: { checks: { red_flag: { keywords: [' x'] } } } }))[0]
        .message,
    ).toBe(
      'Config [profiles.default.checks.red_flag.keywords.0] is a malformed keyword (" x"); use trimmed, non-empty text.',
    );
  });

  it('accepts keep as a configured verdict (evidence_strength raises it to soften when it fires)', () => {
    const c = resolveEngineConfig(
      profiles({ default: { checks: { evidence_strength: { verdict: 'keep' } } } }),
    );
    expect(c.profiles.get('default')!.checks.evidence_strength).toEqual({ verdict: 'keep' });
  });

  it('never changes the exported built-in profiles', () => {
    const before = JSON.stringify(resolveEngineConfig().profiles.get('default'));
    resolveEngineConfig(profiles({ default: { checks: { red_flag: { keywords: ['x'] } } } }));
    expect(JSON.stringify(resolveEngineConfig().profiles.get('default'))).toBe(before);
    expect(Object.isFrozen(BUILTIN_PROFILES[0].checks.red_flag!.keywords)).toBe(true);
    expect(Object.isFrozen(BUILTIN_TIERS[0])).toBe(true);
  });
});

describe('resolveEngineConfig: budget, LLM, default profile and unknown keys', () => {
  it('takes budget caps as whole numbers or digit strings', () => {
    const c = resolveEngineConfig({ budget: { max_llm_calls: '5', max_tokens: 0 } });
    expect(c.budget).toEqual({ ...DEFAULT_BUDGET, max_llm_calls: 5, max_tokens: 0 });
  });

  it('enables the LLM only with llm.enabled === true', () => {
    expect(resolveEngineConfig({ llm: { enabled: true } }).llmEnabled).toBe(true);
    expect(resolveEngineConfig({ llm: {} }).llmEnabled).toBe(false);
    expect(paths({ llm: { enabled: 'yes' } })).toEqual(['llm.enabled']);
  });

  it('takes a default profile that must exist', () => {
    expect(resolveEngineConfig({ default_profile: 'medical' }).defaultProfile).toBe('medical');
    expect(paths({ default_profile: 'astrology' })).toEqual(['default_profile']);
  });

  it('reports every problem of a config at once, in one error naming them', () => {
    let error: EvidenceConfigError | undefined;
    try {
      resolveEngineConfig({
        api: { enabled: true },
        tiers: { official: { rank: 200 } },
        budget: { max_llm_calls: -1, max_calls: 1 },
        llm: { enabled: true, model: 'x' },
      });
    } catch (e) {
      error = e as EvidenceConfigError;
    }
    expect(error?.details.map((p) => p.path)).toEqual([
      'api',
      'tiers.official.rank',
      'budget.max_llm_calls',
      'budget.max_calls',
      'llm.model',
    ]);
    expect(error?.message).toMatch(
      /^Invalid evidence engine config: Config \[api\] is not an evidence engine setting\./,
    );
  });

  it('refuses a config that is not an object', () => {
    expect(paths('defaults')).toEqual(['']);
  });
});
