import type { IncomingMessage } from 'node:http';

/**
 * Which /api/auth/me requests take the lean path (docs/benchmarks.md, "Knowledge base:
 * authenticated request"): personal access tokens, the case it is measured for; cookie sessions
 * and iam tokens reach the same method through Nest.
 */
export function isPersonalAccessTokenRequest(req: IncomingMessage): boolean {
  const header = req.headers.authorization;
  return typeof header === 'string' && /^Bearer\s+kbp_/i.test(header);
}
