/**
 * The longest `return_to` the sign-in pages carry, in a link or a form alike: an authorization
 * request with a long state, several resources and a nonce fits well, and the authorize endpoint
 * refuses (back to the client) a request whose way back would not fit, so none is ever cut short.
 */
export const RETURN_TO_MAX_LENGTH = 8192;

/**
 * Where a login page may send the browser afterwards: only our own authorize endpoint or account
 * page, as a path. Anything else (absolute URLs, `//host`, backslashes) falls back to the account
 * page, so the login pages are never an open redirect.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || /[\\\r\n]/.test(value)) return '/login/account';
  if (value.startsWith('/oauth/authorize?') || value === '/login/account') return value;
  return '/login/account';
}
