import proxyAddr from 'proxy-addr';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/**
 * RFC 9110 §7.6.1: fields that describe one connection, never forwarded in either direction, plus
 * the ones this hop answers itself: `expect` (the gateway sends the 100 Continue) and `host`
 * (the upstream's own authority is used; the client's travels as X-Forwarded-Host).
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
  'expect',
  'host',
]);

/** RFC 9110 §5.6.2 token: a field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 9110 §5.5 field value: visible characters, obs-text, space and tab; nothing that ends a line. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** An origin-form request target as the HTTP client accepts it. */
const ORIGIN_FORM = /^\/[\x21-\xff]*$/;

function connectionOptions(value: string | string[] | undefined): Set<string> {
  const list = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(
    list
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** Headers minus the hop-by-hop ones and those the `Connection` header names. */
export function endToEndHeaders(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const named = connectionOptions(headers.connection);
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(key) || named.has(key)) continue;
    out[key] = value;
  }
  return out;
}

/** Whether an address is one of the proxies in front of the gateway (proxy-addr's compiled trust: an address and its hop). */
export type TrustedProxies = (address: string, hop: number) => boolean;

/**
 * The proxies in front of the gateway (GATEWAY_TRUSTED_PROXIES): a number of hops (the nearest N
 * addresses, whatever they are: `1` for one ingress), or addresses, CIDR ranges and proxy-addr's
 * names (loopback, linklocal, uniquelocal), comma-separated. None by default: the client is the TCP
 * peer, and what it writes in X-Forwarded-For is not believed. A range trusts every hop inside it,
 * so a client that itself has a private address could name any client it likes behind
 * `uniquelocal`; a hop count believes only what the ingress appended. Throws on an entry that is
 * not an address, so a typo stops the gateway at boot instead of trusting nobody quietly.
 */
export function trustedProxies(setting: string | undefined): TrustedProxies {
  const value = (setting ?? '').trim();
  if (/^\d{1,2}$/.test(value)) {
    const hops = Number(value);
    // A peer without an address (its socket already gone) is nobody to believe.
    return (address, hop) => Boolean(address) && hop < hops;
  }
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  try {
    return proxyAddr.compile(entries);
  } catch (e) {
    throw new Error(`GATEWAY_TRUSTED_PROXIES: ${(e as Error).message}`);
  }
}

/**
 * What the upstream receives: the client's end-to-end headers, the request id, and the
 * X-Forwarded-For/Host/Proto trio. X-Forwarded-For is replaced by the one client address the
 * gateway believes: the TCP peer, or, when the peer is a trusted proxy, the nearest address its
 * X-Forwarded-For names that is not one. The services behind trust the gateway, so what a client
 * wrote there would otherwise become their client address, and with it every per-address limit
 * (login throttles, token endpoint, widget setup) a client could dodge by rotating the header.
 */
export function upstreamRequestHeaders(req: IncomingMessage, requestId: string, trust: TrustedProxies = NO_PROXY): Record<string, string | string[]> {
  const peerTrusted = trust(req.socket.remoteAddress ?? '', 0);
  // The gateway's own fields go first (the HTTP client sends them in this order): a service whose
  // parser keeps only its first so many fields (Node: 1000) then drops client fields, never these.
  const out: Record<string, string | string[]> = {
    'x-request-id': requestId,
    'x-forwarded-for': clientAddress(req, trust),
    // Host is the authority this hop was asked for; the scheme is the TLS terminator's in front of
    // the gateway when there is one and it is trusted (it sets X-Forwarded-Proto), else plain HTTP.
    'x-forwarded-host': req.headers.host ?? '',
    'x-forwarded-proto': (peerTrusted ? firstValue(req.headers['x-forwarded-proto']) : undefined) ?? 'http',
  };
  for (const [name, value] of Object.entries(endToEndHeaders(req.headers))) if (!(name in out)) out[name] = value;
  return out;
}

const NO_PROXY: TrustedProxies = () => false;

/**
 * The one client address the gateway believes: the TCP peer, or, when the peer is a trusted proxy,
 * the nearest address its X-Forwarded-For names that is not one. A socket already gone has no
 * address: empty (as a header value it still forwards; undefined would make undici refuse the request).
 */
export function clientAddress(req: IncomingMessage, trust: TrustedProxies = NO_PROXY): string {
  return proxyAddr(req, trust) ?? '';
}

function firstValue(v: string | string[] | undefined): string | undefined {
  if (v === undefined) return undefined;
  const s = (Array.isArray(v) ? v[0] : v).split(',')[0].trim();
  return s || undefined;
}

/**
 * Why the HTTP client would refuse to send this request, or undefined. Checked before the request
 * is handed to the connection pool: a request the pool refuses at dispatch leaves one of its
 * connections waiting for a drain that never comes, so it must never get that far.
 */
export function unsendableReason(path: string, headers: Record<string, string | string[]>): string | undefined {
  if (!ORIGIN_FORM.test(path)) return 'the request target is not a valid path';
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) return `header name "${name.slice(0, 40)}" is not a valid token`;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (!FIELD_VALUE.test(v)) return `header "${name}" has a character not allowed in a field value`;
    }
  }
  return undefined;
}

/**
 * The header section the services behind accept (Node's default `maxHeaderSize`, which they keep).
 * The gateway takes as much from a client, then adds its own fields (X-Request-Id, the
 * X-Forwarded trio, the HTTP client's Host, Connection and framing), so a request near that size
 * from the client would be refused by the service in the service's own shape.
 */
export const UPSTREAM_MAX_HEADER_BYTES = 16 * 1024;

/** What the HTTP client adds to `headers` besides Host: `connection: keep-alive` and a framing line, with room to spare. */
const CLIENT_ADDED_BYTES = 64;

/**
 * The size of the header section the upstream would receive for this request, counted as it goes
 * on the wire (request line, every field line with its separators, the blank line): never less
 * than what the service's parser counts against its limit.
 */
export function upstreamHeaderBytes(method: string, path: string, headers: Record<string, string | string[]>, upstreamAuthority: string): number {
  let bytes = Buffer.byteLength(`${method} ${path} HTTP/1.1\r\nhost: ${upstreamAuthority}\r\n\r\n`, 'latin1') + CLIENT_ADDED_BYTES;
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value]) bytes += name.length + Buffer.byteLength(v, 'latin1') + 4;
  }
  return bytes;
}

/** Response headers for the client: the upstream's end-to-end ones. */
export function clientResponseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  return endToEndHeaders(headers);
}

/** RFC 9110 §10.1.1: the one expectation defined; Node matches it the same way. */
export function expectsContinue(req: IncomingMessage): boolean {
  const expect = req.headers.expect;
  return req.httpVersion === '1.1' && typeof expect === 'string' && /(?:^|\W)100-continue(?:$|\W)/i.test(expect);
}
