import type { Aal } from '../../session/session.service';

/**
 * What an upstream sign-in is worth here. The upstream's own word is all we have, so it is read
 * conservatively: aal2 only when its id_token says a second factor was used (acr aal2/aal3, or
 * amr with `mfa`, or a phishing-resistant or one-time factor next to another method); anything
 * else is aal1. Never aal3: we cannot check the upstream's authenticator.
 */
export function upstreamAal(acr: unknown, amr: unknown): Aal {
  if (acr === 'aal2' || acr === 'aal3') return 'aal2';
  const methods = Array.isArray(amr) ? amr.filter((m): m is string => typeof m === 'string') : [];
  if (methods.includes('mfa')) return 'aal2';
  const strong = ['otp', 'hwk', 'swk', 'sms', 'sc'].filter((m) => methods.includes(m));
  return strong.length && methods.length >= 2 ? 'aal2' : 'aal1';
}
