import { Profile } from './profiles';
import { Tier } from './tiers';
import { Claim, Finding, KeywordCheckKind, Verdict } from './types';

/** A keyword matches only with no letter, digit or underscore on either side. */
function keywordMatches(text: string, keyword: string): boolean {
  const needle = keyword.toLowerCase();
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const before = at === 0 ? '' : text[at - 1];
    const after = text[at + needle.length] ?? '';
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return true;
  }
  return false;
}

export interface StrengthResult {
  findings: Finding[];
  /** g(c) = max(0, t(a,c) − max r(s)) per claim, in claim order. */
  gaps: Record<string, number>;
}

/**
 * evidence_strength: each claim needs a source at least as strong as its profile's minimum tier
 * for its assertiveness. Unknown source ids are skipped (but listed in the evidence); for a
 * repeated source id the last definition wins.
 */
export function evidenceStrength(claims: Claim[], sourceTiers: Map<string, string>, tiers: Map<string, Tier>, profile: Profile, run: boolean): StrengthResult {
  const findings: Finding[] = [];
  const gaps: Record<string, number> = {};
  const configured = profile.checks.evidence_strength?.verdict ?? 'flag_for_human_review';
  const verdict: Verdict = configured === 'keep' ? 'soften' : configured;
  for (const claim of claims) {
    const required = tiers.get(profile.min_tier[claim.assertiveness])!;
    let best = tiers.get('unverified') ?? { key: 'unverified', rank: 0, label: 'Unverified', builtin: true };
    for (const id of claim.source_ids) {
      const tier = sourceTiers.has(id) ? tiers.get(sourceTiers.get(id)!) : undefined;
      if (tier && tier.rank > best.rank) best = tier;
    }
    const gap = Math.max(0, required.rank - best.rank);
    gaps[claim.id] = gap;
    if (!run || gap === 0) continue;
    findings.push({
      check_kind: 'evidence_strength',
      claim_id: claim.id,
      verdict,
      reason: `Claim requires evidence tier [${required.key}] but best source tier is [${best.key}].`,
      suggested_rewrite: 'Soften the claim or add stronger supporting evidence.',
      confidence: 0.85,
      cost_class: 'cheap',
      evidence: { required_tier: required.key, best_tier: best.key, gap, source_ids: [...claim.source_ids] },
    });
  }
  return { findings, gaps };
}

/** One keyword check: at most one finding per claim, for the first keyword in list order. */
export function keywordCheck(kind: KeywordCheckKind, claims: Claim[], profile: Profile): Finding[] {
  const check = profile.checks[kind]!;
  const findings: Finding[] = [];
  for (const claim of claims) {
    const text = claim.text.toLowerCase();
    const keyword = check.keywords!.find((k) => keywordMatches(text, k));
    if (!keyword) continue;
    findings.push({
      check_kind: kind,
      claim_id: claim.id,
      verdict: check.verdict,
      reason: `Claim matched ${kind} keyword [${keyword}].`,
      suggested_rewrite: null,
      confidence: 0.7,
      cost_class: 'cheap',
      evidence: { keyword },
    });
  }
  return findings;
}
