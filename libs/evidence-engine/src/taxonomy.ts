import { orderedRecord } from './ordered-record';
import { Tier, TierTable, tierTable, BUILTIN_TIERS } from './tiers';
import {
  ASSERTIVENESS,
  Assertiveness,
  CHECK_KINDS,
  CheckKind,
  severityOf,
  Verdict,
  VERDICTS,
} from './types';

export interface Taxonomy {
  /** Tier key → tier, by rank descending then key. */
  tiers: Record<string, Tier>;
  risk_checks: CheckKind[];
  risk_verdicts: Array<{ key: Verdict; severity: number }>;
  claim_assertiveness: Assertiveness[];
}

export function taxonomyOf(tiers: TierTable): Taxonomy {
  return {
    tiers: orderedRecord([...tiers.values()].map((t) => [t.key, { ...t }] as const)),
    risk_checks: [...CHECK_KINDS],
    risk_verdicts: VERDICTS.map((key) => ({ key, severity: severityOf(key) })),
    claim_assertiveness: [...ASSERTIVENESS],
  };
}

/** The taxonomy of an engine with no tier config. */
export const builtinTaxonomy = (): Taxonomy => taxonomyOf(tierTable(BUILTIN_TIERS));
