export * from './types';
export * from './errors';
export { canonicalJson, sha256Hex } from './canonical';
export { orderedRecord } from './ordered-record';
export { BUILTIN_TIERS, UNVERIFIED_TIER, tierTable } from './tiers';
export type { Tier, TierTable } from './tiers';
export { BUILTIN_PROFILES, profileSummary, profileDetail } from './profiles';
export type { CheckSettings, Profile, ProfileSummary } from './profiles';
export { DEFAULT_BUDGET, resolveEngineConfig } from './config';
export type { EngineConfig, ResolvedEngineConfig } from './config';
export type { ProfileConfig } from './profile-config';
export type { TierConfig } from './tier-config';
export type { TierHint } from './tier-hints';
export {
  applyApiDocs,
  ArtifactDto,
  BudgetCapsDto,
  ClaimDto,
  parseReviewRequest,
  ReviewOptionsDto,
  ReviewRequestDto,
  SourceDto,
} from './request';
export { hostOf, labelSource } from './labeling';
export type { LabelableSource, LabelingRules, LabelRule, TierLabel } from './labeling';
export { containsKeyword } from './keyword-matcher';
export { BudgetMeter, effectiveBudget } from './budget';
export type { BudgetDecision } from './budget';
export { claimVerdicts, riskScore, worstVerdict } from './reduction';
export { parseModelFindings, parseModelTiers } from './model-output';
export { LLM_MAX_TOKENS } from './llm-step';
export { reviewIdOf } from './review-id';
export type { CanonicalRequest } from './review-id';
export { builtinTaxonomy, taxonomyOf } from './taxonomy';
export type { Taxonomy } from './taxonomy';
export { fixedClock, systemClock } from './ports';
export type { Clock, EnginePorts, LlmPort, ReviewLogEntry, ReviewLogPort } from './ports';
export { createReviewEngine, ReviewEngine } from './engine';
