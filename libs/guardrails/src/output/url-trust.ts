/** How a link or image address in model output is treated. */
export type UrlVerdict = 'relative' | 'trusted' | 'untrusted' | 'dangerous';

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  colon: ':', tab: '\t', newline: '\n', sol: '/', bsol: '\\', period: '.', lpar: '(', rpar: ')', amp: '&',
};

/** Renderers decode entities in link destinations and browsers drop tabs and newlines in schemes. */
function canonicalAddress(raw: string): string {
  return raw
    .replace(/&#x([0-9a-f]{1,6});?/gi, (_, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff)))
    .replace(/&#(\d{1,7});?/g, (_, dec: string) => String.fromCodePoint(Math.min(parseInt(dec, 10), 0x10ffff)))
    .replace(/&([a-z]{2,10});/gi, (whole, name: string) => NAMED_ENTITIES[name.toLowerCase()] ?? whole)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0020\u007f]/g, '')
    .replace(/\\/g, '/')
    .toLowerCase();
}

/** A host is trusted when it is, or is a subdomain of, a trusted host. */
export function hostTrusted(host: string, trustedHosts: readonly string[]): boolean {
  const h = host.replace(/\.$/, '').toLowerCase();
  return trustedHosts.some((t) => {
    const trusted = t.replace(/^\*\./, '').replace(/\.$/, '').toLowerCase();
    return h === trusted || h.endsWith(`.${trusted}`);
  });
}

/**
 * Classifies an address. Links may point at http(s) and mailto; images only at http(s). Anything
 * else with a scheme (javascript:, data:, vbscript:, file:…) is dangerous. Relative addresses stay
 * on the page's own origin.
 */
export function classifyUrl(raw: string, trustedHosts: readonly string[], kind: 'link' | 'image'): UrlVerdict {
  const address = canonicalAddress(raw);
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(address)?.[1];
  if (scheme === undefined && !address.startsWith('//')) return 'relative';
  if (scheme === 'mailto') return kind === 'link' ? 'trusted' : 'dangerous';
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return 'dangerous';
  let host: string;
  try {
    host = new URL(address.startsWith('//') ? `https:${address}` : address).hostname;
  } catch {
    return 'dangerous';
  }
  return hostTrusted(host, trustedHosts) ? 'trusted' : 'untrusted';
}
