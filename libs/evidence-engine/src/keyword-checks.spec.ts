import { resolveEngineConfig } from './config';
import { containsKeyword } from './keyword-matcher';
import { keywordChecks } from './keyword-checks';
import { Claim, KeywordCheckKind } from './types';

/** reference/evidence.md §1.4: verdict and keywords (in list order) per profile and check. */
const FLAG = 'flag_for_human_review';
const KEYWORDS: Record<string, Partial<Record<KeywordCheckKind, [string, string[]]>>> = {
  default: {
    over_generalization: ['soften', ['always', 'never', 'guaranteed', 'proves', 'eliminates']],
    special_population: [FLAG, ['children', 'pregnant', 'elderly', 'immunocompromised']],
    contraindication: [FLAG, ['contraindication', 'contraindicated', 'do not use', 'interaction']],
    boundary_condition: [
      'soften',
      ['all cases', 'without exception', 'regardless of', 'any environment'],
    ],
    red_flag: ['remove', ['emergency', 'life-threatening', 'suicide', 'self-harm', 'fraud']],
  },
  engineering: {
    over_generalization: ['soften', ['always', 'never', 'guaranteed', 'drop-in', 'zero downtime']],
    boundary_condition: [FLAG, ['all versions', 'any database', 'any runtime', 'any workload']],
    red_flag: [FLAG, ['security bypass', 'data loss', 'privilege escalation', 'production outage']],
  },
  finance: {
    over_generalization: [
      FLAG,
      ['guaranteed return', 'risk-free', 'always profitable', 'cannot lose'],
    ],
    special_population: [FLAG, ['retirees', 'minors', 'vulnerable customers', 'low income']],
    boundary_condition: [
      'soften',
      ['any market', 'all investors', 'without risk', 'in every scenario'],
    ],
    red_flag: ['remove', ['insider information', 'market manipulation', 'launder', 'fraud']],
  },
  legal: {
    over_generalization: [
      'soften',
      ['always legal', 'never liable', 'guaranteed compliant', 'proves compliance'],
    ],
    boundary_condition: [
      FLAG,
      ['all jurisdictions', 'every court', 'without exception', 'regardless of law'],
    ],
    red_flag: [
      'remove',
      ['evade regulation', 'hide evidence', 'illegal workaround', 'circumvent law'],
    ],
  },
  medical: {
    over_generalization: ['soften', ['always', 'never', 'cures', 'prevents', 'safe for everyone']],
    special_population: [
      FLAG,
      ['children', 'pregnant', 'elderly', 'renal impairment', 'immunocompromised'],
    ],
    contraindication: [
      'remove',
      ['contraindication', 'contraindicated', 'do not use', 'adverse reaction', 'drug interaction'],
    ],
    boundary_condition: [
      FLAG,
      ['all patients', 'without monitoring', 'any dose', 'no side effects'],
    ],
    red_flag: ['remove', ['emergency', 'life-threatening', 'suicide', 'self-harm', 'overdose']],
  },
};
const ALL_CHECKS: KeywordCheckKind[] = [
  'over_generalization',
  'special_population',
  'contraindication',
  'boundary_condition',
  'red_flag',
];

const config = resolveEngineConfig();
const claim = (text: string, id = 'c'): Claim => ({
  id,
  text,
  assertiveness: 'likely',
  source_ids: [],
  metadata: {},
});
const check = (claims: Claim[], profile = 'default', c = config) =>
  keywordChecks(claims, c.profiles.get(profile)!);

describe('keyword checks: every keyword of every built-in profile', () => {
  const cases = Object.entries(KEYWORDS).flatMap(([profile, checks]) =>
    Object.entries(checks).flatMap(([kind, [verdict, words]]) =>
      words.map((w) => [profile, kind, w, verdict] as const),
    ),
  );

  it.each(cases)('%s %s matches [%s] with verdict %s', (profile, kind, keyword, verdict) => {
    const found = check([claim(`Note: ${keyword.toUpperCase()} here.`)], profile).filter(
      (f) => f.check_kind === kind,
    );
    expect(found).toEqual([
      {
        check_kind: kind,
        claim_id: 'c',
        verdict,
        reason: `Claim matched ${kind} keyword [${keyword}].`,
        suggested_rewrite: null,
        confidence: 0.7,
        cost_class: 'cheap',
        evidence: { keyword },
      },
    ]);
  });

  const disabled = Object.entries(KEYWORDS).flatMap(([profile, checks]) =>
    ALL_CHECKS.filter((kind) => !checks[kind]).map((kind) => [profile, kind] as const),
  );

  it.each(disabled)('%s does not run %s', (profile, kind) => {
    const words = KEYWORDS['default'][kind]?.[1] ?? KEYWORDS['medical'][kind]![1];
    const found = check(
      words.map((w, i) => claim(`About ${w}.`, `c${i}`)),
      profile,
    );
    expect(found.filter((f) => f.check_kind === kind)).toEqual([]);
  });
});

describe('keyword checks: matching rules', () => {
  it('reports at most one finding per claim and check: the first keyword in list order', () => {
    const found = check([claim('It never fails and always works.')]);
    expect(found.map((f) => f.evidence['keyword'])).toEqual(['always']);
  });

  it('runs the checks in order, claims in input order within each check', () => {
    const found = check([
      claim('A fraud that always works.', 'x'),
      claim('Safe for children, always.', 'y'),
    ]);
    expect(found.map((f) => [f.check_kind, f.claim_id])).toEqual([
      ['over_generalization', 'x'],
      ['over_generalization', 'y'],
      ['special_population', 'y'],
      ['red_flag', 'x'],
    ]);
  });

  it('uses configured keyword lists and verdicts', () => {
    const c = resolveEngineConfig({
      profiles: { default: { checks: { red_flag: { verdict: 'soften', keywords: ['Scam'] } } } },
    });
    expect(check([claim('A scam.')], 'default', c)).toMatchObject([
      { check_kind: 'red_flag', verdict: 'soften', evidence: { keyword: 'scam' } },
    ]);
  });

  it('finds nothing in a clean claim', () => {
    expect(check([claim('Results vary between studies.')])).toEqual([]);
  });
});

describe('containsKeyword: no letter, digit or underscore on either side', () => {
  it.each([
    ['it proves the point', 'proves', true],
    ['it improves outcomes', 'proves', false],
    ['proven', 'proves', false],
    ['a life-threatening.', 'life-threatening', true],
    ['(always)', 'always', true],
    ['always_on', 'always', false],
    ['always2', 'always', false],
    ['2always', 'always', false],
    ['alwaysé', 'always', false],
    ['éalways', 'always', false],
    ['𝐀always', 'always', false],
    ['always🙂', 'always', true],
    ['not always, but always', 'always', true],
    ['alwaysalways always', 'always', true],
    ['do  not use', 'do not use', false],
    ['zero-downtime', 'zero downtime', false],
    ['', 'always', false],
  ])('%j contains %j: %s', (text, keyword, expected) => {
    expect(containsKeyword(text, keyword)).toBe(expected);
  });
});
