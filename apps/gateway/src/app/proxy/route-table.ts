export type UpstreamName = 'iam' | 'guardrails' | 'kb' | 'evidence';

/** ARCHITECTURE.md "Gateway routes": a contract clients, scripts and tests rely on. */
export const DEFAULT_ROUTES: Record<string, UpstreamName> = {
  '/oauth': 'iam',
  '/.well-known': 'iam',
  // RFC 9728 metadata of each MCP server is served by the service that is the resource.
  '/.well-known/oauth-protected-resource/mcp/kb': 'kb',
  '/.well-known/oauth-protected-resource/evidence-risk-review/mcp': 'evidence',
  '/api/iam': 'iam',
  '/login': 'iam',
  '/guardrails/api': 'guardrails',
  '/api/auth': 'kb',
  '/api/kb': 'kb',
  '/api/admin': 'kb',
  '/api/widget': 'kb',
  '/api/me': 'kb',
  '/api/notifications': 'kb',
  '/api/chat-filter-presets': 'kb',
  '/api/conversations': 'kb',
  '/api/system-admin': 'kb',
  '/mcp/kb': 'kb',
  '/widget': 'kb',
  '/evidence-risk-review': 'evidence',
};

const MIB = 1024 * 1024;

/**
 * Largest request body the gateway forwards per upstream; larger answers 413 at the edge. Each is at
 * least the service's own default limit (kb-api's KB_MAX_BODY_BYTES, 64 MiB, is an ingest batch;
 * evidence 2 MiB, guardrails 1 MiB, iam's form posts far less), so the service keeps the final
 * word up to there. A service configured above these needs GATEWAY_BODY_LIMITS raised too.
 */
export const DEFAULT_BODY_LIMITS: Record<UpstreamName, number> = {
  iam: 1 * MIB,
  guardrails: 2 * MIB,
  kb: 64 * MIB,
  evidence: 4 * MIB,
};

/** For a route whose target is a URL rather than a known service. */
export const FALLBACK_BODY_LIMIT = 64 * MIB;

export interface Route {
  prefix: string;
  /** Base URL of the upstream. */
  upstream: string;
  /**
   * Upstream name (iam, kb, …) or, for a custom URL target, the route's prefix: never the URL, as
   * the name is shown on the gateway's public /metrics and /health/ready.
   */
  name: string;
  /** Largest request body forwarded, in bytes. */
  maxBodyBytes: number;
}

/**
 * Resolves route targets to upstream base URLs and orders them longest prefix first, so
 * `/api/kb` wins over a hypothetical `/api`. A prefix matches at a path-segment boundary only:
 * `/oauth` matches `/oauth/token` and `/oauth?x`, never `/oauthx`.
 */
export function buildRoutes(
  table: Record<string, string>,
  upstreams: Record<UpstreamName, string>,
  bodyLimits: Record<string, number> = {},
): Route[] {
  for (const [prefix, bytes] of Object.entries(bodyLimits)) {
    if (!(prefix in table)) throw new Error(`gateway body limit for "${prefix}" names no route`);
    if (!Number.isSafeInteger(bytes) || bytes < 0) throw new Error(`gateway body limit for "${prefix}" must be a whole number of bytes`);
  }
  return Object.entries(table)
    .map(([prefix, target]) => {
      if (!prefix.startsWith('/')) throw new Error(`gateway route "${prefix}" must start with /`);
      const known = target in upstreams;
      const upstream = known ? upstreams[target as UpstreamName] : target;
      if (!/^https?:\/\//.test(upstream)) throw new Error(`gateway route "${prefix}" has no valid upstream ("${target}")`);
      const maxBodyBytes = bodyLimits[prefix] ?? (known ? DEFAULT_BODY_LIMITS[target as UpstreamName] : FALLBACK_BODY_LIMIT);
      const trimmed = prefix.replace(/\/+$/, '');
      return { prefix: trimmed, upstream: upstream.replace(/\/+$/, ''), name: known ? target : trimmed, maxBodyBytes };
    })
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

export function matchRoute(routes: Route[], url: string): Route | undefined {
  for (const route of routes) {
    if (!url.startsWith(route.prefix)) continue;
    const next = url.charCodeAt(route.prefix.length);
    // end of string, '/', '?' or '#'
    if (Number.isNaN(next) || next === 47 || next === 63 || next === 35) return route;
  }
  return undefined;
}

const UPSTREAM_HEALTH = /^\/health\/([a-z0-9-]+)\/(live|ready)\/?$/;

/**
 * `/health/<upstream>/(live|ready)` on the gateway reaches that service's own health endpoint,
 * so an operator can check every service through the one public address.
 */
export function matchUpstreamHealth(routes: Route[], url: string): { route: Route; path: string } | undefined {
  const m = UPSTREAM_HEALTH.exec(url);
  if (!m) return undefined;
  const route = routes.find((r) => r.name === m[1]);
  return route ? { route, path: `/health/${m[2]}` } : undefined;
}
