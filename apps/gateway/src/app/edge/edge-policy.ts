import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Headers every answer of the platform carries, whoever produced it. Set only when the upstream did
 * not choose its own (iam's login pages send a stricter Content-Security-Policy, for example).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
// A browser OAuth client sends DPoP proofs (RFC 9449) and, on MCP, the protocol version; it must read
// the challenge (WWW-Authenticate, which names the RFC 9728 metadata) and the next DPoP-Nonce.
const ALLOWED_HEADERS = 'authorization, content-type, idempotency-key, x-request-id, x-tenant-id, x-xsrf-token, accept, dpop, mcp-protocol-version';
const EXPOSED_HEADERS = 'x-request-id, x-ai-disclosure, retry-after, idempotency-replayed, www-authenticate, dpop-nonce';

export interface EdgePolicyOptions {
  /** Origins allowed to call the API from a browser (exact `scheme://host[:port]`); empty: none. */
  corsOrigins: readonly string[];
  /** Whether requests arrive over TLS (then Strict-Transport-Security is sent). */
  hsts: boolean;
  /**
   * Path prefixes whose CORS the upstream decides (default: the KB widget's). A widget key carries its
   * own allowed origins, so the gateway neither answers those preflights nor adds CORS headers there.
   */
  delegatedCorsPrefixes?: readonly string[];
}

/** The embeddable widget runs on third-party pages: kb-api checks their origins against each widget key. */
export const WIDGET_CORS_PREFIXES: readonly string[] = ['/api/widget', '/widget'];

/**
 * The gateway's edge rules: security headers and CORS for an allow-list of origins, applied to
 * proxied and local answers alike. A preflight from an allowed origin is answered here (204); one
 * from any other origin gets no CORS headers, so the browser refuses the call.
 */
export class EdgePolicy {
  private readonly origins: Set<string>;
  private readonly delegated: readonly string[];

  constructor(private readonly options: EdgePolicyOptions) {
    this.origins = new Set(options.corsOrigins);
    this.delegated = options.delegatedCorsPrefixes ?? WIDGET_CORS_PREFIXES;
  }

  /** Answers a CORS preflight itself; returns true when it did. */
  preflight(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method'] || this.corsDelegated(req)) return false;
    const origin = this.allowedOrigin(req);
    const headers: Record<string, string> = { ...this.securityHeaders(), vary: 'Origin', 'content-length': '0' };
    if (origin) {
      Object.assign(headers, {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': ALLOWED_METHODS,
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': '600',
      });
    }
    res.writeHead(204, headers).end();
    return true;
  }

  /**
   * Sets the edge headers on a response before anyone answers it: headers the handler or upstream
   * sends itself (writeHead) take precedence, so each service keeps its own stricter choices.
   */
  applyDefaults(req: IncomingMessage, res: ServerResponse): void {
    for (const [k, v] of Object.entries(this.responseHeaders(req))) res.setHeader(k, v);
  }

  responseHeaders(req: IncomingMessage): Record<string, string> {
    const out: Record<string, string> = this.securityHeaders();
    if (this.corsDelegated(req)) return out;
    const origin = this.allowedOrigin(req);
    if (origin) {
      out['access-control-allow-origin'] = origin;
      out['access-control-allow-credentials'] = 'true';
      out['access-control-expose-headers'] = EXPOSED_HEADERS;
    }
    if (this.origins.size) out['vary'] = 'Origin';
    return out;
  }

  /** The security headers alone: for answers written straight to the socket, with no request to read CORS from. */
  securityHeaders(): Record<string, string> {
    return this.options.hsts ? { ...SECURITY_HEADERS, 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : { ...SECURITY_HEADERS };
  }

  private corsDelegated(req: IncomingMessage): boolean {
    const path = (req.url ?? '').split('?', 1)[0];
    return this.delegated.some((p) => path === p || path.startsWith(`${p}/`));
  }

  private allowedOrigin(req: IncomingMessage): string | null {
    const origin = req.headers.origin;
    return typeof origin === 'string' && this.origins.has(origin) ? origin : null;
  }
}

/** Parses GATEWAY_CORS_ORIGINS: comma-separated origins; a wildcard is refused (credentials are allowed). */
export function parseCorsOrigins(raw: string | undefined): string[] {
  const origins = (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const o of origins) {
    if (o === '*' || !/^https?:\/\/[^/\s]+$/.test(o)) throw new Error(`GATEWAY_CORS_ORIGINS: "${o}" is not an origin like https://app.example.com (wildcards are not allowed)`);
  }
  return origins;
}
