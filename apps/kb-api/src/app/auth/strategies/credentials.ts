import type { IncomingHttpHeaders } from 'node:http';

/** `Authorization: Bearer <credential>` as kb-api reads it; null without one or in any other form. */
export function bearerCredential(headers: IncomingHttpHeaders): string | null {
  const header = headers.authorization;
  if (typeof header !== 'string' || header.length === 0) return null;
  return /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null;
}

/** Whether the request carries an Authorization header at all (a cookie session is then not looked at). */
export function hasAuthorization(headers: IncomingHttpHeaders): boolean {
  return typeof headers.authorization === 'string' && headers.authorization.length > 0;
}

/** Three base64url segments: the shape of an iam access token. */
export const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
