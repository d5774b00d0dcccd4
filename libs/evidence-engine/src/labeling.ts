import { TierHint } from './tier-hints';
import { TierTable, UNVERIFIED_TIER } from './tiers';
import { Source } from './types';

/** Which labelling rule decided a source's tier (`model`: the optional LLM refinement). */
export type LabelRule =
  'declared_tier' | 'domain_hint' | 'preprint_host' | 'doi' | 'default' | 'model';

export interface TierLabel {
  tier: string;
  rule: LabelRule;
}

export interface LabelingRules {
  tiers: TierTable;
  hints: readonly TierHint[];
}

export type LabelableSource = Pick<
  Source,
  'url' | 'title' | 'snippet' | 'declared_tier' | 'metadata'
>;

/** `10.` + 4–9 digits + `/` + a suffix, in any case, not glued to a preceding word. */
const DOI = /(?<![\p{L}\p{N}_.])10\.\d{4,9}\/\S+/iu;
const PREPRINT_HOSTS = ['arxiv.org'];

/** The host of an absolute URL, lowercased; text without a scheme has none. */
export function hostOf(url: string | null): string | null {
  if (!url || !/^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim())) return null;
  try {
    const host = new URL(url.trim()).hostname.toLowerCase().replace(/\.$/, '');
    return host === '' ? null : host;
  } catch {
    return null;
  }
}

const onDomain = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * r(s): a source's tier by the first rule that matches. A declared tier (an unknown key means
 * unverified: a claim is not made stronger by a tier nobody configured), then domain hints in
 * config order, then arXiv as preprint (even when a DOI is present: arXiv mints DOIs too), then
 * a DOI in url, title, snippet or metadata.doi as peer-reviewed, else unverified.
 */
export function labelSource(source: LabelableSource, rules: LabelingRules): TierLabel {
  const declared = source.declared_tier?.trim().toLowerCase();
  if (declared) {
    return { tier: rules.tiers.has(declared) ? declared : UNVERIFIED_TIER, rule: 'declared_tier' };
  }
  const host = hostOf(source.url);
  if (host) {
    const hint = rules.hints.find((h) => onDomain(host, h.domain));
    if (hint) return { tier: hint.tier, rule: 'domain_hint' };
    if (PREPRINT_HOSTS.some((d) => onDomain(host, d)))
      return { tier: 'preprint', rule: 'preprint_host' };
  }
  const doi = source.metadata?.['doi'];
  const texts = [source.url, source.title, source.snippet, typeof doi === 'string' ? doi : null];
  if (texts.some((t) => t !== null && DOI.test(t))) return { tier: 'peer_reviewed', rule: 'doi' };
  return { tier: UNVERIFIED_TIER, rule: 'default' };
}
