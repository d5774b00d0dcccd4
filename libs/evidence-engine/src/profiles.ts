import { EvidenceError } from './errors';
import { Tier } from './tiers';
import { Assertiveness, ASSERTIVENESS, CHECK_KINDS, CheckKind, KeywordCheckKind, Verdict, VERDICTS } from './types';

export interface CheckConfig {
  verdict: Verdict;
  keywords?: string[];
}

export interface Profile {
  key: string;
  label: string;
  description: string;
  /** Minimum tier key per assertiveness: t(a, c). */
  min_tier: Record<Assertiveness, string>;
  enabled_checks: CheckKind[];
  checks: Partial<Record<CheckKind, CheckConfig>>;
}

const kw = (verdict: Verdict, keywords: string[]): CheckConfig => ({ verdict, keywords });

/** reference/evidence.md §1.4: thresholds, verdicts and keyword lists, in list order. */
export const BUILTIN_PROFILES: readonly Profile[] = [
  {
    key: 'default',
    label: 'Default',
    description: 'General-purpose review of answers backed by cited sources.',
    min_tier: { tentative: 'search_hint', likely: 'official', definitive: 'peer_reviewed' },
    enabled_checks: [...CHECK_KINDS],
    checks: {
      evidence_strength: { verdict: 'soften' },
      over_generalization: kw('soften', ['always', 'never', 'guaranteed', 'proves', 'eliminates']),
      special_population: kw('flag_for_human_review', ['children', 'pregnant', 'elderly', 'immunocompromised']),
      contraindication: kw('flag_for_human_review', ['contraindication', 'contraindicated', 'do not use', 'interaction']),
      boundary_condition: kw('soften', ['all cases', 'without exception', 'regardless of', 'any environment']),
      red_flag: kw('remove', ['emergency', 'life-threatening', 'suicide', 'self-harm', 'fraud']),
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
      over_generalization: kw('soften', ['always', 'never', 'guaranteed', 'drop-in', 'zero downtime']),
      boundary_condition: kw('flag_for_human_review', ['all versions', 'any database', 'any runtime', 'any workload']),
      red_flag: kw('flag_for_human_review', ['security bypass', 'data loss', 'privilege escalation', 'production outage']),
    },
  },
  {
    key: 'finance',
    label: 'Finance',
    description: 'Financial answers: returns, risk and suitability claims.',
    min_tier: { tentative: 'official', likely: 'official', definitive: 'guideline' },
    enabled_checks: ['evidence_strength', 'over_generalization', 'special_population', 'boundary_condition', 'red_flag'],
    checks: {
      evidence_strength: { verdict: 'flag_for_human_review' },
      over_generalization: kw('flag_for_human_review', ['guaranteed return', 'risk-free', 'always profitable', 'cannot lose']),
      special_population: kw('flag_for_human_review', ['retirees', 'minors', 'vulnerable customers', 'low income']),
      boundary_condition: kw('soften', ['any market', 'all investors', 'without risk', 'in every scenario']),
      red_flag: kw('remove', ['insider information', 'market manipulation', 'launder', 'fraud']),
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
      over_generalization: kw('soften', ['always legal', 'never liable', 'guaranteed compliant', 'proves compliance']),
      boundary_condition: kw('flag_for_human_review', ['all jurisdictions', 'every court', 'without exception', 'regardless of law']),
      red_flag: kw('remove', ['evade regulation', 'hide evidence', 'illegal workaround', 'circumvent law']),
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
      over_generalization: kw('soften', ['always', 'never', 'cures', 'prevents', 'safe for everyone']),
      special_population: kw('flag_for_human_review', ['children', 'pregnant', 'elderly', 'renal impairment', 'immunocompromised']),
      contraindication: kw('remove', ['contraindication', 'contraindicated', 'do not use', 'adverse reaction', 'drug interaction']),
      boundary_condition: kw('flag_for_human_review', ['all patients', 'without monitoring', 'any dose', 'no side effects']),
      red_flag: kw('remove', ['emergency', 'life-threatening', 'suicide', 'self-harm', 'overdose']),
    },
  },
];

export type ProfileOverrides = Record<string, Partial<Omit<Profile, 'key'>>>;

/**
 * Built-in profiles merged with config, each validated: every bad setting stops construction with
 * an error naming its key (a reviewer must never run with a half-understood profile).
 */
export function buildProfiles(tiers: Map<string, Tier>, overrides: ProfileOverrides = {}): Map<string, Profile> {
  const merged = new Map(BUILTIN_PROFILES.map((p) => [p.key, structuredClone(p) as Profile]));
  for (const [key, change] of Object.entries(overrides)) {
    const base = merged.get(key);
    const profile = {
      key,
      label: change.label ?? base?.label ?? key,
      description: change.description ?? base?.description ?? '',
      min_tier: change.min_tier ?? base?.min_tier,
      enabled_checks: change.enabled_checks ?? base?.enabled_checks,
      checks: change.checks ?? base?.checks ?? {},
    } as Profile;
    merged.set(key, profile);
  }
  for (const p of merged.values()) validateProfile(p, tiers);
  return new Map([...merged.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

function validateProfile(p: Profile, tiers: Map<string, Tier>): void {
  const at = (path: string) => `profiles.${p.key}.${path}`;
  if (!/^[a-z][a-z0-9_-]*$/.test(p.key)) throw EvidenceError.config(`profiles.${p.key}: a profile key must be lowercase`);
  if (!p.min_tier || typeof p.min_tier !== 'object') throw EvidenceError.config(`${at('min_tier')} is required`);
  for (const a of ASSERTIVENESS) {
    const tier = p.min_tier[a];
    if (typeof tier !== 'string') throw EvidenceError.config(`${at(`min_tier.${a}`)} is missing (a tier key)`);
    if (!tiers.has(tier)) throw EvidenceError.config(`${at(`min_tier.${a}`)}: tier "${tier}" is not configured`);
  }
  if (!Array.isArray(p.enabled_checks)) throw EvidenceError.config(`${at('enabled_checks')} must be a list`);
  for (const c of p.enabled_checks) {
    if (!(CHECK_KINDS as readonly string[]).includes(c)) throw EvidenceError.config(`${at('enabled_checks')}: unknown check "${c}"`);
  }
  for (const [kind, check] of Object.entries(p.checks)) {
    if (!(CHECK_KINDS as readonly string[]).includes(kind)) throw EvidenceError.config(`${at(`checks.${kind}`)}: unknown check`);
    if (check.verdict === undefined) check.verdict = 'flag_for_human_review';
    if (!(VERDICTS as readonly string[]).includes(check.verdict)) throw EvidenceError.config(`${at(`checks.${kind}.verdict`)}: invalid verdict "${String(check.verdict)}"`);
  }
  for (const kind of p.enabled_checks) {
    p.checks[kind] ??= { verdict: 'flag_for_human_review' };
    if (kind === 'evidence_strength') continue;
    const keywords = p.checks[kind as KeywordCheckKind]!.keywords;
    if (!Array.isArray(keywords) || keywords.length === 0) throw EvidenceError.config(`${at(`checks.${kind}.keywords`)}: an enabled keyword check needs keywords`);
    for (const k of keywords) {
      if (typeof k !== 'string' || k.trim() === '' || k !== k.trim()) throw EvidenceError.config(`${at(`checks.${kind}.keywords`)}: malformed keyword ${JSON.stringify(k)}`);
    }
  }
}

/** What GET /profiles shows of a profile. */
export function profileSummary(p: Profile) {
  return { key: p.key, label: p.label, description: p.description, enabled_checks: p.enabled_checks, min_tier: p.min_tier };
}
