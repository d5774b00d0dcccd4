import { AddressPolicy, guardedFetch, GuardedFetchLimits } from '@platform/runtime';

export interface FetchedPage {
  url: string;
  contentType: string;
  body: Buffer;
}

export type FetchLimits = GuardedFetchLimits;

/**
 * GET a page under the address policy, a byte cap and a time limit, following a few redirects (each checked again);
 * a refusal (FetchRefused) is reported in the sync run, never thrown past it.
 */
export async function fetchPage(raw: string, policy: AddressPolicy, limits: FetchLimits): Promise<FetchedPage> {
  const r = await guardedFetch(raw, policy, { ...limits, headers: { accept: 'text/html, text/markdown, text/plain;q=0.9', 'user-agent': 'kb-connector' } });
  return { url: r.url, contentType: r.contentType, body: r.body };
}
