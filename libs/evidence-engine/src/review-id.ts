import { canonicalJson, sha256Hex } from './canonical';
import { Profile } from './profiles';
import { Artifact, BudgetCaps } from './types';

/**
 * What a review is about, after validation and defaults: the artifact, the profile key, the
 * effective budget and whether tiers may be refined. Whether it is a dry run and when it runs
 * are not part of it, so a replay or a dry run of the same review has the same id.
 */
export interface CanonicalRequest {
  artifact: Artifact;
  options: { profile_key: string; budget: BudgetCaps; label_via_llm: boolean };
}

/** `rev_` + 32 hex digits of sha256 over the canonical JSON of the request and the profile. */
export function reviewIdOf(request: CanonicalRequest, profile: Profile): string {
  return `rev_${sha256Hex(canonicalJson({ request, profile })).slice(0, 32)}`;
}
