export const ASSERTIVENESS = ['definitive', 'likely', 'tentative'] as const;
export type Assertiveness = (typeof ASSERTIVENESS)[number];

/** The six deterministic checks, in the order they run. */
export const CHECK_KINDS = [
  'evidence_strength',
  'over_generalization',
  'special_population',
  'contraindication',
  'boundary_condition',
  'red_flag',
] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];
export type KeywordCheckKind = Exclude<CheckKind, 'evidence_strength'>;

/** Verdicts by severity: keep < soften < flag_for_human_review < remove. */
export const VERDICTS = ['keep', 'soften', 'flag_for_human_review', 'remove'] as const;
export type Verdict = (typeof VERDICTS)[number];
export const severityOf = (v: Verdict): number => VERDICTS.indexOf(v);

export type CostClass = 'cheap' | 'heavy' | 'skipped_over_budget';

export interface Claim {
  id: string;
  text: string;
  assertiveness: Assertiveness;
  source_ids: string[];
  metadata: Record<string, unknown>;
}

export interface Source {
  id: string;
  url: string | null;
  title: string | null;
  snippet: string | null;
  declared_tier: string | null;
  metadata: Record<string, unknown>;
}

export interface Artifact {
  artifact_id: string;
  answer_text: string;
  question: string | null;
  tenant_id: string | null;
  claims: Claim[];
  sources: Source[];
  metadata: Record<string, unknown>;
}

export interface BudgetCaps {
  max_llm_calls: number;
  max_tokens: number;
  max_heavy_checks: number;
  max_wall_seconds: number;
}

export interface ReviewOptions {
  profile_key: string;
  budget: BudgetCaps;
  label_via_llm: boolean;
  dry_run: boolean;
  /** Replay: review as of this instant instead of the clock's now (ISO-8601). */
  reviewed_at: string | null;
}

export interface ReviewRequest {
  artifact: Artifact;
  options: ReviewOptions;
}

export interface Finding {
  check_kind: CheckKind;
  claim_id: string | null;
  verdict: Verdict;
  reason: string;
  suggested_rewrite: string | null;
  confidence: number;
  cost_class: CostClass;
  evidence: Record<string, unknown>;
}

export interface ReviewResult {
  review_id: string;
  artifact_id: string;
  profile_key: string;
  verdict: Verdict;
  findings: Finding[];
  claim_verdicts: Record<string, Verdict>;
  claim_gaps: Record<string, number>;
  source_tiers: Record<string, string>;
  risk_score: number;
  budget: { llm_calls: number; tokens: number; heavy_checks: number; wall_seconds: number };
  reviewed_at: string;
  metadata: { dry_run: boolean; heavy_checks_run: boolean; llm_enabled: boolean };
}
