/**
 * Rate-limit headers of every throttled route, in the structured-field syntax of the IETF draft
 * "RateLimit header fields for HTTP" (draft-ietf-httpapi-ratelimit-headers):
 *
 *   RateLimit-Policy: "oauth";q=60;w=60
 *   RateLimit: "oauth";r=17;t=42
 *
 * Each header is a list with one item per policy that judged the request, so a route behind two
 * limiters (the widget's per-IP and per-key limits) names both. Every limiter formats through
 * here, so clients read the same shape from iam and kb-api.
 */

/** A quota policy: at most `quota` units per `windowSec` seconds. */
export interface RateLimitPolicy {
  /** The policy's name (a token-like identifier, sent as a structured-field string). */
  name: string;
  quota: number;
  windowSec: number;
}

/** Where the caller stands in the current window after this request. */
export interface RateLimitState {
  /** Units left in the window (0 once exceeded). */
  remaining: number;
  /** Seconds until the window frees up. */
  resetSec: number;
}

/** The minimal response surface the headers are written to (Express and node:http both fit). */
export interface HeaderSink {
  getHeader(name: string): number | string | string[] | undefined;
  setHeader(name: string, value: string): unknown;
}

const POLICY_NAME = /^[A-Za-z0-9._-]{1,64}$/;

const whole = (n: number) => Math.max(0, Math.floor(Number.isFinite(n) ? n : 0));

function item(policy: RateLimitPolicy, params: string): string {
  // Names are fixed by the code, never by a client; a bad one is a programming error.
  if (!POLICY_NAME.test(policy.name)) throw new Error(`invalid rate-limit policy name: ${policy.name}`);
  return `"${policy.name}";${params}`;
}

/** `"name";q=<quota>;w=<window>` */
export function formatRateLimitPolicy(policy: RateLimitPolicy): string {
  return item(policy, `q=${whole(policy.quota)};w=${whole(policy.windowSec)}`);
}

/** `"name";r=<remaining>;t=<seconds to reset>` */
export function formatRateLimit(policy: RateLimitPolicy, state: RateLimitState): string {
  return item(policy, `r=${whole(state.remaining)};t=${whole(state.resetSec)}`);
}

/** Seconds a refused caller should wait: at least 1, so a client never retries at once. */
export function retryAfterSec(state: RateLimitState): number {
  return Math.max(1, Math.ceil(Number.isFinite(state.resetSec) ? state.resetSec : 1));
}

function append(res: HeaderSink, name: string, value: string): void {
  const existing = res.getHeader(name);
  // Items hold no commas (names are plain tokens), so a joined value splits back into its items.
  const list = (Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  // The same policy judged twice (a guard run again) keeps only its newest state.
  const policyKey = value.slice(0, value.indexOf(';'));
  res.setHeader(name, [...list.filter((v) => v.slice(0, v.indexOf(';')) !== policyKey), value].join(', '));
}

/**
 * Adds one policy's headers to the answer; with `exceeded`, also `Retry-After` (the caller answers
 * 429). Call it on every answer of a throttled route, allowed or refused.
 */
export function applyRateLimitHeaders(res: HeaderSink, policy: RateLimitPolicy, state: RateLimitState, exceeded = false): void {
  append(res, 'RateLimit-Policy', formatRateLimitPolicy(policy));
  append(res, 'RateLimit', formatRateLimit(policy, exceeded ? { ...state, remaining: 0 } : state));
  if (exceeded) res.setHeader('Retry-After', String(retryAfterSec(state)));
}

/** The response headers a browser script may read on a cross-origin throttled route. */
export const RATE_LIMIT_EXPOSED_HEADERS = ['RateLimit', 'RateLimit-Policy', 'Retry-After'] as const;
