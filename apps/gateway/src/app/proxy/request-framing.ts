import type { IncomingMessage } from 'node:http';

/** Why the gateway refuses a request before routing it: an answer and the reason given. */
export interface FramingRefusal {
  status: number;
  code: string;
  detail: string;
}

/**
 * RFC 3986 §3.2.2 host with an optional port, as RFC 9110 §7.2 defines Host: an IP literal in
 * brackets, or a reg-name (which covers IPv4 addresses) of unreserved, sub-delims and
 * percent-encoded characters; empty is allowed (a target without an authority).
 */
const HOST = /^(?:\[[0-9A-Za-z:.\-_~!$&'()*+,;=]+\]|(?:[0-9A-Za-z\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?$/;

/**
 * Most header field lines a request may carry (431 past). The services behind are Node servers,
 * whose parser keeps the first 1000 field lines of a request and silently drops the rest; the
 * gateway forwards a client's fields and adds its own (X-Request-Id, X-Forwarded-For/Host/Proto,
 * and the HTTP client's Host and Connection). A client sending close to 1000 fields would push the
 * gateway's past that cut: the service would then see no X-Forwarded-For and take the gateway's
 * address for the client's, so every client doing so would share one budget of the per-address
 * limits (login, token, OAuth) apart from everyone else's, and each could double its own by
 * alternating. 100 is Apache's LimitRequestFields default (HAProxy's is 101): far above what
 * browsers and an ingress send (a few dozen), and far below the upstream's cut.
 */
export const MAX_HEADER_FIELDS = 100;

/**
 * What Node's parser lets through but the gateway must not act on, for every request it receives
 * (proxied or its own): more header fields than MAX_HEADER_FIELDS, a Host that is missing (HTTP/1.1)
 * or not one, and transfer codings other than chunked alone.
 * RFC 9112 §3.2: an HTTP/1.1 request without Host, with more than one Host field line, or with a Host
 * with an invalid value, MUST be answered 400. Node keeps the first Host and drops the rest, so the
 * gateway would route, log and forward (as X-Forwarded-Host) one authority while another proxy or
 * cache on the path may have read the other.
 */
export function framingRefusal(req: IncomingMessage): FramingRefusal | undefined {
  const version = versionRefusal(req);
  if (version) return version;
  const raw = req.rawHeaders;
  // Counted on the raw lines: Node's own parser keeps them all there but drops fields past its cut
  // from req.headers (a Host among them would go unseen).
  if (raw.length / 2 > MAX_HEADER_FIELDS) {
    return { status: 431, code: 'request_header_fields_too_large', detail: `the request has more than ${MAX_HEADER_FIELDS} header fields` };
  }
  const hosts: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'host') hosts.push(raw[i + 1]);
  // Node answers this itself, outside the gateway's error shape, unless told not to (mount-proxy does).
  if (hosts.length === 0 && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) return { status: 400, code: 'bad_request', detail: 'an HTTP/1.1 request must have a Host header' };
  if (hosts.length > 1) return { status: 400, code: 'bad_request', detail: 'the request has more than one Host header' };
  if (hosts.length === 1 && !HOST.test(hosts[0])) return { status: 400, code: 'bad_request', detail: 'the Host header is not a valid host' };
  return transferCodingRefusal(req.headers['transfer-encoding']);
}

/**
 * Only HTTP/1.0 and HTTP/1.1 are served. Node's parser also takes a request line without a version
 * (HTTP/0.9, `GET /path`: no headers, so no Host, and an answer its client could not read) and any
 * version number (`HTTP/2.0` on a cleartext connection is not HTTP/2's preface); both would be
 * forwarded as HTTP/1.1. RFC 9110 §15.6.6: 505 for a major version the server does not support.
 */
function versionRefusal(req: IncomingMessage): FramingRefusal | undefined {
  if (req.httpVersionMajor === 1 && (req.httpVersionMinor === 0 || req.httpVersionMinor === 1)) return undefined;
  if (req.httpVersionMajor === 0) return { status: 400, code: 'bad_request', detail: 'a request line without an HTTP version (HTTP/0.9) is not supported' };
  return { status: 505, code: 'http_version_not_supported', detail: `HTTP/${req.httpVersion.slice(0, 10)} is not supported: only HTTP/1.0 and HTTP/1.1` };
}

/**
 * The only transfer coding the gateway decodes is chunked, and only on its own. Node's parser
 * accepts any list that ends in chunked (`gzip, chunked`, or the same over two field lines) and
 * removes only the chunked framing: the bytes still carry the other codings, which the gateway would
 * forward as a plain body (Transfer-Encoding is hop-by-hop, so the upstream never learns of them),
 * and a body size or content check downstream would see something other than what was meant.
 * RFC 9112 §6.1: a coding the server does not understand SHOULD be answered 501; chunked applied
 * more than once is forbidden to the sender (400).
 */
function transferCodingRefusal(value: string | undefined): FramingRefusal | undefined {
  if (value === undefined) return undefined;
  const codings = value.split(',').map((c) => c.trim().toLowerCase());
  if (codings.length === 1 && codings[0] === 'chunked') return undefined;
  const other = codings.find((c) => c !== 'chunked');
  if (other === undefined) return { status: 400, code: 'bad_request', detail: 'the chunked transfer coding is applied more than once' };
  return { status: 501, code: 'not_implemented', detail: `the transfer coding "${other.slice(0, 40)}" is not supported (only chunked, alone)` };
}

/** RFC 9112 §3.2.2 absolute-form of an http or https target: the authority, then path and query (no fragment). */
const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)([^#]*)$/i;

/**
 * Rewrites an absolute-form request target (`GET http://api.example/oauth/token HTTP/1.1`, what a
 * client talking to a forward proxy sends) to origin-form, so it is routed, checked and forwarded
 * like the same request in origin-form (routes match on the path; matched on the whole URL, it
 * fell through to the gateway's own 404 while Express, which parses it, served /metrics). RFC 9112
 * §3.2.2: a server MUST accept absolute-form, and then ignore the Host header for the target's
 * authority; so the authority replaces Host here, and everything after (X-Forwarded-Host
 * included) sees one authority. Runs after framingRefusal: the Host line must still have been
 * valid. A target of another scheme, with user information (RFC 9110 §4.2.4), or with an empty
 * or invalid host (§4.2.1) is refused 400. An origin-form or asterisk-form target is left as it is.
 */
export function toOriginForm(req: IncomingMessage): FramingRefusal | undefined {
  const url = req.url ?? '';
  if (url.startsWith('/') || url === '*') return undefined;
  const m = ABSOLUTE_FORM.exec(url);
  if (!m) return { status: 400, code: 'bad_request', detail: 'the request target is neither a path nor an http(s) URL' };
  const [, authority, rest] = m;
  if (authority.includes('@') || !HOST.test(authority) || authority.replace(/:[0-9]*$/, '') === '') {
    return { status: 400, code: 'bad_request', detail: "the request target's authority is not a valid host" };
  }
  req.url = rest.startsWith('/') ? rest : `/${rest}`;
  req.headers.host = authority;
  const raw = req.rawHeaders;
  const line = raw.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === 'host');
  if (line >= 0) raw[line + 1] = authority;
  else raw.push('Host', authority);
  return undefined;
}
