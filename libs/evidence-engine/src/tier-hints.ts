import { isPlainObject, pathOf, ProblemList } from './json';
import { TierTable } from './tiers';

/** A configured domain hint: sources on `domain` or any subdomain get `tier`. */
export interface TierHint {
  domain: string;
  tier: string;
}

const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/** `nih.gov` and `*.nih.gov` both cover nih.gov and its subdomains. */
export function resolveTierHints(
  raw: unknown,
  tiers: TierTable,
  problems: ProblemList,
): TierHint[] {
  if (raw === undefined) return [];
  if (!isPlainObject(raw)) {
    problems.add('tier_hints', 'Config [tier_hints] must be an object of domain to tier key.');
    return [];
  }
  const hints: TierHint[] = [];
  for (const [pattern, tier] of Object.entries(raw)) {
    const at = pathOf('tier_hints', pattern);
    const domain = pattern.trim().toLowerCase().replace(/^\*\./, '').replace(/\.$/, '');
    if (!HOSTNAME.test(domain)) {
      problems.add(at, `Config [${at}]: "${pattern}" is not a domain.`);
    } else if (typeof tier !== 'string' || !tiers.has(tier)) {
      problems.add(at, `Config [${at}]: evidence tier [${String(tier)}] is not configured.`);
    } else {
      hints.push({ domain, tier });
    }
  }
  return hints;
}
