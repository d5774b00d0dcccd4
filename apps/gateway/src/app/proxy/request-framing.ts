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
 * What Node's parser lets through but HTTP/1.1 forbids, for every request the gateway receives
 * (proxied or its own). RFC 9112 §3.2: a request with more than one Host field line, or a Host with
 * an invalid value, MUST be answered 400. Node keeps the first Host and drops the rest, so the
 * gateway would route, log and forward (as X-Forwarded-Host) one authority while another proxy or
 * cache on the path may have read the other.
 */
export function framingRefusal(req: IncomingMessage): FramingRefusal | undefined {
  const hosts: string[] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === 'host') hosts.push(raw[i + 1]);
  if (hosts.length > 1) return { status: 400, code: 'bad_request', detail: 'the request has more than one Host header' };
  if (hosts.length === 1 && !HOST.test(hosts[0])) return { status: 400, code: 'bad_request', detail: 'the Host header is not a valid host' };
  return undefined;
}
