import type { Tier } from './tiers';

/** How strongly a claim is asserted; stronger claims need stronger evidence. */
export const ASSERTIVENESS = ['definitive', 'likely', 'tentative'] as const;
export type Assertiveness = (typeof ASSERTIVENESS)[number];

/** The six deterministic checks, in the order they run (and are listed in the taxonomy). */
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
export const severityOf = (verdict: Verdict): number => VERDICTS.indexOf(verdict);

/** cheap = deterministic check; heavy = the model; skipped_over_budget = a heavy check refused. */
export const COST_CLASSES = ['cheap', 'heavy', 'skipped_over_budget'] as const;
export type CostClass = (typeof COST_CLASSES)[number];

export type JsonObject = Record<string, unknown>;

export interface Claim {
  id: string;
  text: string;
  assertiveness: Assertiveness;
  source_ids: string[];
  metadata: JsonObject;
}

export interface Source {
  id: string;
  url: string | null;
  title: string | null;
  snippet: string | null;
  declared_tier: string | null;
  metadata: JsonObject;
}

export interface Artifact {
  artifact_id: string;
  /** Never scanned by the deterministic checks; only the model sees it. */
  answer_text: string;
  question: string | null;
  tenant_id: string | null;
  claims: Claim[];
  sources: Source[];
  metadata: JsonObject;
}

export interface BudgetCaps {
  max_llm_calls: number;
  max_tokens: number;
  max_heavy_checks: number;
  max_wall_seconds: number;
}

export interface ReviewOptions {
  /** null: the engine's configured default profile. */
  profile_key: string | null;
  /** Only the caps the client set; the rest come from config (which also bounds them). */
  budget: Partial<BudgetCaps>;
  label_via_llm: boolean;
  dry_run: boolean;
  /** Replay: review as of this instant (ISO-8601, UTC) instead of the clock's now. */
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
  evidence: JsonObject;
}

export interface BudgetUsage {
  llm_calls: number;
  tokens: number;
  heavy_checks: number;
  wall_seconds: number;
}

export interface ReviewMetadata {
  dry_run: boolean;
  /** The model was consulted for the heavy risk check and answered. */
  heavy_checks_run: boolean;
  llm_enabled: boolean;
}

export interface ReviewResult {
  review_id: string;
  artifact_id: string;
  profile_key: string;
  /** The worst verdict of any finding (keep when there is none). */
  verdict: Verdict;
  findings: Finding[];
  /** Claim id → worst verdict, in claim order; clean claims are absent. */
  claim_verdicts: Record<string, Verdict>;
  /** Claim id → g(c) = max(0, t(a,c) − max r(s)), for every claim, in claim order. */
  claim_gaps: Record<string, number>;
  /** Source id → its tier as the taxonomy lists it (`{key, rank, label, builtin}`), in source order. */
  source_tiers: Record<string, Tier>;
  /** severity(verdict) / 3, to four decimals: 0, 0.3333, 0.6667 or 1. */
  risk_score: number;
  budget: BudgetUsage;
  reviewed_at: string;
  metadata: ReviewMetadata;
}
