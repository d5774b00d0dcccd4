import { lookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { AddressPolicy } from './address-policy';

export interface FetchedPage {
  url: string;
  contentType: string;
  body: Buffer;
}

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

/** A refusal or failure of one URL, reported in the sync run (never thrown past the sync). */
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

function getOnce(url: URL, policy: AddressPolicy, limits: FetchLimits, signal: AbortSignal) {
  return new Promise<{ status: number; location?: string; contentType: string; body: Buffer }>((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !policy.permits(host, host)) return reject(new FetchRefused(`${host} is a private or loopback address`));
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(url, { lookup: guardedLookup(policy, host), signal, headers: { accept: 'text/html, text/markdown, text/plain;q=0.9', 'user-agent': 'kb-connector' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        res.resume();
        return resolve({ status, location: res.headers.location, contentType: '', body: Buffer.alloc(0) });
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > limits.maxBytes) {
        res.destroy();
        return reject(new FetchRefused(`larger than ${limits.maxBytes} bytes`));
      }
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) {
          res.destroy();
          reject(new FetchRefused(`larger than ${limits.maxBytes} bytes`));
        } else parts.push(chunk);
      });
      res.on('end', () => resolve({ status, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** GET an http(s) URL under the address policy, a byte cap and a time limit, following a few redirects (each checked again). */
export async function fetchPage(raw: string, policy: AddressPolicy, limits: FetchLimits): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = new URL(raw);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused('only http and https URLs are fetched');
    let r;
    try {
      r = await getOnce(url, policy, limits, signal);
    } catch (e) {
      if (signal.aborted) throw new FetchRefused(`no answer within ${limits.timeoutMs} ms`);
      throw e;
    }
    if (r.location !== undefined || (r.status >= 300 && r.status < 400)) {
      if (!r.location || hop >= limits.maxRedirects) throw new FetchRefused(`too many redirects (or a redirect without a location)`);
      url = new URL(r.location, url);
      continue;
    }
    if (r.status !== 200) throw new FetchRefused(`answered HTTP ${r.status}`);
    return { url: url.toString(), contentType: r.contentType, body: r.body };
  }
}
