import { isPlainObject } from './json';
import { TierTable } from './tiers';
import { Finding, Verdict, VERDICTS } from './types';

/** Confidence of a model finding that states none (or an unusable one). */
const DEFAULT_CONFIDENCE = 0.75;

/**
 * The model's risk findings, validated item by item: model output is untrusted, so an item
 * without a non-empty `reason`, naming a claim the artifact does not have, or with an unknown
 * verdict is dropped rather than failing the review. A missing verdict means flag for review.
 */
export function parseModelFindings(data: unknown, claimIds: ReadonlySet<string>): Finding[] {
  const items = isPlainObject(data) ? data['findings'] : undefined;
  if (!Array.isArray(items)) return [];
  const findings: Finding[] = [];
  for (const item of items) {
    if (!isPlainObject(item)) continue;
    const reason = item['reason'];
    if (typeof reason !== 'string' || reason.trim() === '') continue;
    const claimId = item['claim_id'] ?? null;
    if (claimId !== null && (typeof claimId !== 'string' || !claimIds.has(claimId))) continue;
    const verdict = item['verdict'] ?? 'flag_for_human_review';
    if (!(VERDICTS as readonly unknown[]).includes(verdict)) continue;
    const confidence = item['confidence'];
    const rewrite = item['suggested_rewrite'];
    findings.push({
      check_kind: 'evidence_strength',
      claim_id: claimId,
      verdict: verdict as Verdict,
      reason: reason.trim(),
      suggested_rewrite:
        typeof rewrite === 'string' && rewrite.trim() !== '' ? rewrite.trim() : null,
      confidence:
        typeof confidence === 'number' && confidence >= 0 && confidence <= 1
          ? confidence
          : DEFAULT_CONFIDENCE,
      cost_class: 'heavy',
      evidence: {},
    });
  }
  return findings;
}

/**
 * The model's tier suggestions (`source_tiers: {id: tier}`), keeping only those for sources it
 * was asked about and naming a configured tier.
 */
export function parseModelTiers(
  data: unknown,
  askedIds: ReadonlySet<string>,
  tiers: TierTable,
): Map<string, string> {
  const refined = new Map<string, string>();
  const suggested = isPlainObject(data) ? data['source_tiers'] : undefined;
  if (!isPlainObject(suggested)) return refined;
  for (const [id, tier] of Object.entries(suggested)) {
    if (askedIds.has(id) && typeof tier === 'string' && tiers.has(tier)) refined.set(id, tier);
  }
  return refined;
}
