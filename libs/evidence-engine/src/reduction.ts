import { orderedRecord } from './ordered-record';
import { Claim, Finding, severityOf, Verdict, VERDICTS } from './types';

/** The most severe verdict among findings; keep when there are none. */
export function worstVerdict(findings: readonly Pick<Finding, 'verdict'>[]): Verdict {
  let worst = 0;
  for (const f of findings) worst = Math.max(worst, severityOf(f.verdict));
  return VERDICTS[worst];
}

/**
 * Claim id → its worst verdict, in claim input order (a repeated id folds into its first place).
 * Claims with no findings, or only keep findings, are absent; findings without a claim count
 * only towards the review's verdict.
 */
export function claimVerdicts(
  claims: readonly Claim[],
  findings: readonly Finding[],
): Record<string, Verdict> {
  const worst = new Map<string, number>();
  for (const f of findings) {
    if (f.claim_id === null) continue;
    worst.set(f.claim_id, Math.max(worst.get(f.claim_id) ?? 0, severityOf(f.verdict)));
  }
  const entries: Array<[string, Verdict]> = [];
  const seen = new Set<string>();
  for (const { id } of claims) {
    if (seen.has(id)) continue;
    seen.add(id);
    const severity = worst.get(id) ?? 0;
    if (severity > 0) entries.push([id, VERDICTS[severity]]);
  }
  return orderedRecord(entries);
}

/** severity / 3 to four decimals: 0, 0.3333, 0.6667 or 1. */
export const riskScore = (verdict: Verdict): number =>
  Math.round((severityOf(verdict) / 3) * 10000) / 10000;
