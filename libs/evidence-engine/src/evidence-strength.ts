import { Profile } from './profiles';
import { Tier, TierTable, UNVERIFIED_TIER } from './tiers';
import { Claim, Finding, Verdict } from './types';

export interface EvidenceStrengthResult {
  findings: Finding[];
  /** g(c) per claim id, in first-seen claim order; a repeated id keeps its largest gap. */
  gaps: Map<string, number>;
}

/** A claim too weakly supported is at least softened, whatever the profile says. */
const atLeastSoften = (v: Verdict): Verdict => (v === 'keep' ? 'soften' : v);

/**
 * g(c) = max(0, t(a,c) − max r(s)) for every claim, and, when the check is enabled, one finding
 * for each claim with a gap. The best source starts at unverified; cited ids that match no source
 * are skipped (but listed in the evidence); on a tie the first source stays.
 */
export function evidenceStrength(
  claims: readonly Claim[],
  sourceTiers: ReadonlyMap<string, string>,
  tiers: TierTable,
  profile: Profile,
  enabled: boolean,
): EvidenceStrengthResult {
  const findings: Finding[] = [];
  const gaps = new Map<string, number>();
  const verdict = atLeastSoften(
    profile.checks.evidence_strength?.verdict ?? 'flag_for_human_review',
  );
  const unverified = tiers.get(UNVERIFIED_TIER)!;
  for (const claim of claims) {
    const required = tiers.get(profile.min_tier[claim.assertiveness])!;
    let best: Tier = unverified;
    for (const id of claim.source_ids) {
      const key = sourceTiers.get(id);
      const tier = key === undefined ? undefined : tiers.get(key);
      if (tier && tier.rank > best.rank) best = tier;
    }
    const gap = Math.max(0, required.rank - best.rank);
    gaps.set(claim.id, Math.max(gap, gaps.get(claim.id) ?? 0));
    if (!enabled || gap === 0) continue;
    findings.push({
      check_kind: 'evidence_strength',
      claim_id: claim.id,
      verdict,
      reason: `Claim requires evidence tier [${required.key}] but best source tier is [${best.key}].`,
      suggested_rewrite: 'Soften the claim or add stronger supporting evidence.',
      confidence: 0.85,
      cost_class: 'cheap',
      evidence: {
        required_tier: required.key,
        best_tier: best.key,
        gap,
        source_ids: [...claim.source_ids],
      },
    });
  }
  return { findings, gaps };
}
