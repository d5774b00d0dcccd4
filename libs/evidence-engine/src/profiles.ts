import { deepFreeze } from './json';
import { Assertiveness, CHECK_KINDS, CheckKind, Verdict } from './types';

export interface CheckSettings {
  verdict: Verdict;
  /** Keyword checks only: matched against claim text, first match in list order wins. */
  keywords?: string[];
}

/** A risk profile: the thresholds t(a, c) and which checks run with which verdict. */
export interface Profile {
  key: string;
  label: string;
  description: string;
  /** Minimum tier key per assertiveness: t(a, c) is that tier's rank. */
  min_tier: Record<Assertiveness, string>;
  /** In check order (CHECK_KINDS). */
  enabled_checks: CheckKind[];
  checks: Partial<Record<CheckKind, CheckSettings>>;
}

const keywordCheck = (verdict: Verdict, keywords: string[]): CheckSettings => ({
  verdict,
  keywords,
});

/** The five built-in profiles: thresholds, verdicts and keyword lists (keyword order matters). */
export const BUILTIN_PROFILES: readonly Profile[] = deepFreeze([
  {
    key: 'default',
    label: 'Default',
    description: 'General-purpose review of answers backed by cited sources.',
    min_tier: { tentative: 'search_hint', likely: 'official', definitive: 'peer_reviewed' },
    enabled_checks: [...CHECK_KINDS],
    checks: {
      evidence_strength: { verdict: 'soften' },
      over_generalization: keywordCheck('soften', [
        'always',
        'never',
        'guaranteed',
        'proves',
        'eliminates',
      ]),
      special_population: keywordCheck('flag_for_human_review', [
        'children',
        'pregnant',
        'elderly',
        'immunocompromised',
      ]),
      contraindication: keywordCheck('flag_for_human_review', [
        'contraindication',
        'contraindicated',
        'do not use',
        'interaction',
      ]),
      boundary_condition: keywordCheck('soften', [
        'all cases',
        'without exception',
        'regardless of',
        'any environment',
      ]),
      red_flag: keywordCheck('remove', [
        'emergency',
        'life-threatening',
        'suicide',
        'self-harm',
        'fraud',
      ]),
    },
  },
  {
    key: 'engineering',
    label: 'Engineering',
    description: 'Technical answers: compatibility, operations and security claims.',
    min_tier: { tentative: 'blog', likely: 'official', definitive: 'official' },
    enabled_checks: ['evidence_strength', 'over_generalization', 'boundary_condition', 'red_flag'],
    checks: {
      evidence_strength: { verdict: 'soften' },
      over_generalization: keywordCheck('soften', [
        'always',
        'never',
        'guaranteed',
        'drop-in',
        'zero downtime',
      ]),
      boundary_condition: keywordCheck('flag_for_human_review', [
        'all versions',
        'any database',
        'any runtime',
        'any workload',
      ]),
      red_flag: keywordCheck('flag_for_human_review', [
        'security bypass',
        'data loss',
        'privilege escalation',
        'production outage',
      ]),
    },
  },
  {
    key: 'finance',
    label: 'Finance',
    description: 'Financial answers: returns, risk and suitability claims.',
    min_tier: { tentative: 'official', likely: 'official', definitive: 'guideline' },
    enabled_checks: [
      'evidence_strength',
      'over_generalization',
      'special_population',
      'boundary_condition',
      'red_flag',
    ],
    checks: {
      evidence_strength: { verdict: 'flag_for_human_review' },
      over_generalization: keywordCheck('flag_for_human_review', [
        'guaranteed return',
        'risk-free',
        'always profitable',
        'cannot lose',
      ]),
      special_population: keywordCheck('flag_for_human_review', [
        'retirees',
        'minors',
        'vulnerable customers',
        'low income',
      ]),
      boundary_condition: keywordCheck('soften', [
        'any market',
        'all investors',
        'without risk',
        'in every scenario',
      ]),
      red_flag: keywordCheck('remove', [
        'insider information',
        'market manipulation',
        'launder',
        'fraud',
      ]),
    },
  },
  {
    key: 'legal',
    label: 'Legal',
    description: 'Legal answers: liability, compliance and jurisdiction claims.',
    min_tier: { tentative: 'official', likely: 'official', definitive: 'guideline' },
    enabled_checks: ['evidence_strength', 'over_generalization', 'boundary_condition', 'red_flag'],
    checks: {
      evidence_strength: { verdict: 'flag_for_human_review' },
      over_generalization: keywordCheck('soften', [
        'always legal',
        'never liable',
        'guaranteed compliant',
        'proves compliance',
      ]),
      boundary_condition: keywordCheck('flag_for_human_review', [
        'all jurisdictions',
        'every court',
        'without exception',
        'regardless of law',
      ]),
      red_flag: keywordCheck('remove', [
        'evade regulation',
        'hide evidence',
        'illegal workaround',
        'circumvent law',
      ]),
    },
  },
  {
    key: 'medical',
    label: 'Medical',
    description: 'Clinical answers: treatment, population and safety claims.',
    min_tier: { tentative: 'official', likely: 'peer_reviewed', definitive: 'guideline' },
    enabled_checks: [...CHECK_KINDS],
    checks: {
      evidence_strength: { verdict: 'flag_for_human_review' },
      over_generalization: keywordCheck('soften', [
        'always',
        'never',
        'cures',
        'prevents',
        'safe for everyone',
      ]),
      special_population: keywordCheck('flag_for_human_review', [
        'children',
        'pregnant',
        'elderly',
        'renal impairment',
        'immunocompromised',
      ]),
      contraindication: keywordCheck('remove', [
        'contraindication',
        'contraindicated',
        'do not use',
        'adverse reaction',
        'drug interaction',
      ]),
      boundary_condition: keywordCheck('flag_for_human_review', [
        'all patients',
        'without monitoring',
        'any dose',
        'no side effects',
      ]),
      red_flag: keywordCheck('remove', [
        'emergency',
        'life-threatening',
        'suicide',
        'self-harm',
        'overdose',
      ]),
    },
  },
]);

/** What a profile listing shows. */
export interface ProfileSummary {
  key: string;
  label: string;
  description: string;
  enabled_checks: CheckKind[];
  min_tier: Record<Assertiveness, string>;
}

export function profileSummary(p: Profile): ProfileSummary {
  return {
    key: p.key,
    label: p.label,
    description: p.description,
    enabled_checks: [...p.enabled_checks],
    min_tier: { ...p.min_tier },
  };
}

/** One profile in full, as GET /profiles/{key} shows it: the summary plus each check's settings. */
export function profileDetail(p: Profile): ProfileSummary & { checks: Profile['checks'] } {
  const checks: Profile['checks'] = {};
  for (const kind of CHECK_KINDS) {
    const c = p.checks[kind];
    if (c)
      checks[kind] = c.keywords
        ? { verdict: c.verdict, keywords: [...c.keywords] }
        : { verdict: c.verdict };
  }
  return { ...profileSummary(p), checks };
}
