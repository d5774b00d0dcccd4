import { firstKeyword } from './keyword-matcher';
import { Profile } from './profiles';
import { CHECK_KINDS, Claim, Finding, KeywordCheckKind } from './types';

const KEYWORD_CHECKS = CHECK_KINDS.filter((k): k is KeywordCheckKind => k !== 'evidence_strength');

/**
 * The profile's enabled keyword checks in check order; each scans claim text only (never the
 * answer text) and gives at most one finding per claim: the first keyword in list order.
 */
export function keywordChecks(claims: readonly Claim[], profile: Profile): Finding[] {
  const enabled = KEYWORD_CHECKS.filter((kind) => profile.enabled_checks.includes(kind));
  if (enabled.length === 0) return [];
  const texts = claims.map((c) => c.text.toLowerCase());
  const findings: Finding[] = [];
  for (const kind of enabled) {
    const check = profile.checks[kind]!;
    const keywords = check.keywords!.map((k) => k.toLowerCase());
    claims.forEach((claim, i) => {
      const keyword = firstKeyword(texts[i], keywords);
      if (keyword === null) return;
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
    });
  }
  return findings;
}
