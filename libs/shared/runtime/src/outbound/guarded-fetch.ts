import { lookup } from 'node:dns';
import http, { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { AddressPolicy } from './address-policy';

export interface GuardedFetchLimits {
  maxBytes: number;
  timeoutMs: number;
  /** 0: a redirect is a refusal, not something to follow. */
  maxRedirects: number;
}

export interface GuardedFetchOptions extends GuardedFetchLimits {
  headers?: Record<string, string>;
}

export interface GuardedResponse {
  /** The URL that answered (after redirects). */
  url: string;
  contentType: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A refused or failed fetch; the message says why without echoing the body. */
export class FetchRefused extends Error {}

/**
 * The address a connection uses is the one checked: the lookup resolves, filters through the
 * policy and hands only a permitted address to the socket, so a DNS answer cannot change between
 * the check and the connect.
 */
function guardedLookup(policy: AddressPolicy, host: string): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { all: true, family: options.family }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const ok = addresses.find((a) => policy.permits(host, a.address));
      if (!ok) return callback(new FetchRefused(`${host} resolves to a private or loopback address`), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, [ok]);
      callback(null, ok.address, ok.family);
    });
  };
}

interface Answer {
  status: number;
  location?: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function getOnce(url: URL, policy: AddressPolicy, o: GuardedFetchOptions, signal: AbortSignal) {
  return new Promise<Answer>((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !policy.permits(host, host)) return reject(new FetchRefused(`${host} is a private or loopback address`));
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(url, { lookup: guardedLookup(policy, host), signal, headers: o.headers }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        res.resume();
        return resolve({ status, location: res.headers.location, headers: res.headers, body: Buffer.alloc(0) });
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > o.maxBytes) {
        res.destroy();
        return reject(new FetchRefused(`larger than ${o.maxBytes} bytes`));
      }
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > o.maxBytes) {
          res.destroy();
          reject(new FetchRefused(`larger than ${o.maxBytes} bytes`));
        } else parts.push(chunk);
      });
      res.on('end', () => resolve({ status, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * GET an http(s) URL under the address policy, a byte cap and one time limit for the whole
 * exchange, following at most `maxRedirects` redirects (each target checked again). Anything but
 * a final 200 is a FetchRefused.
 */
export async function guardedFetch(raw: string, policy: AddressPolicy, o: GuardedFetchOptions): Promise<GuardedResponse> {
  const signal = AbortSignal.timeout(o.timeoutMs);
  let url = new URL(raw);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused('only http and https URLs are fetched');
    let r: Answer;
    try {
      r = await getOnce(url, policy, o, signal);
    } catch (e) {
      if (signal.aborted) throw new FetchRefused(`no answer within ${o.timeoutMs} ms`);
      throw e;
    }
    if (r.location !== undefined || (r.status >= 300 && r.status < 400)) {
      if (o.maxRedirects === 0) throw new FetchRefused(`answered with a redirect (HTTP ${r.status}), which is not followed`);
      if (!r.location || hop >= o.maxRedirects) throw new FetchRefused(`too many redirects (or a redirect without a location)`);
      url = new URL(r.location, url);
      continue;
    }
    if (r.status !== 200) throw new FetchRefused(`answered HTTP ${r.status}`);
    return { url: url.toString(), contentType: String(r.headers['content-type'] ?? ''), headers: r.headers, body: r.body };
  }
}
