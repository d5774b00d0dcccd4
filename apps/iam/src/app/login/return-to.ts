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
