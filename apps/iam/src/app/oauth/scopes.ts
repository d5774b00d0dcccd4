import { ALL_SCOPES } from '@platform/contracts';
import { OAuthError } from './oauth-error';

/** Every scope this server knows; anything else is invalid_scope. */
export const SCOPE_CATALOG: ReadonlySet<string> = new Set(['openid', 'profile', 'email', 'offline_access', ...ALL_SCOPES]);

/**
 * The scopes a client gets: what it asked for, limited to what it may request. An unknown scope
 * is an error; a known one the client may not have is dropped (RFC 6749 §3.3 lets the server
 * issue fewer scopes than asked, and the response names what was granted). No request means
 * everything the client is allowed.
 */
export function grantScopes(requested: string | undefined, allowed: string[]): string[] {
  if (requested === undefined || requested.trim() === '') return [...allowed];
  const asked = [...new Set(requested.split(' ').filter(Boolean))];
  const unknown = asked.filter((s) => !SCOPE_CATALOG.has(s));
  if (unknown.length) throw OAuthError.invalidScope(`unknown scope: ${unknown.join(' ')}`);
  return asked.filter((s) => allowed.includes(s));
}
