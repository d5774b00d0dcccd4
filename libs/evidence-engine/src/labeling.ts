import { EvidenceError } from './errors';
import { Tier } from './tiers';
import { Source } from './types';

/** `10.` + 4–9 digits + `/` + a suffix, any case. */
const DOI = /\b10\.\d{4,9}\/\S+/i;

function hostOf(url: string | null): string | null {
  if (!url || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return null;
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

const matchesDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * r(s): the tier of a source, by the first rule that matches (reference §1.3): a declared tier
 * (unknown keys mean unverified), configured domain hints in order, arXiv as preprint, a DOI as
 * peer-reviewed, else unverified.
 */
export function labelSource(source: Pick<Source, 'url' | 'title' | 'snippet' | 'declared_tier' | 'metadata'>, tiers: Map<string, Tier>, hints: Array<[string, string]>): string {
  const declared = source.declared_tier?.trim();
  if (declared) return tiers.has(declared) ? declared : 'unverified';
  const host = hostOf(source.url);
  if (host) {
    for (const [pattern, tier] of hints) {
      const domain = pattern.toLowerCase().replace(/^\*\./, '');
      if (matchesDomain(host, domain)) {
        if (!tiers.has(tier)) throw new EvidenceError('validation_error', 422, `Evidence tier [${tier}] is not configured.`);
        return tier;
      }
    }
    if (matchesDomain(host, 'arxiv.org')) return 'preprint';
  }
  const doi = source.metadata?.['doi'];
  if ([source.url, source.title, source.snippet, typeof doi === 'string' ? doi : null].some((t) => t && DOI.test(t))) return 'peer_reviewed';
  return 'unverified';
}
