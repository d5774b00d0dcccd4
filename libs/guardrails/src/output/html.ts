import sanitizeHtml from 'sanitize-html';
import { classifyUrl } from './url-trust';

export type HtmlMode = 'escape' | 'allowlist';

export interface HtmlResult {
  text: string;
  /** Something tag-like was escaped or removed (plain `a < b` does not count). */
  stripped: boolean;
}

const TAG_LIKE = /<[A-Za-z/!?]/;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Formatting that model output may keep in allowlist mode; links only to allowed schemes. */
const ALLOWLIST: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'hr', 'b', 'strong', 'i', 'em', 'u', 's', 'del', 'sub', 'sup', 'small', 'mark', 'code', 'pre',
    'kbd', 'blockquote', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'a', 'table',
    'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'span', 'div',
  ],
  allowedAttributes: { a: ['href', 'title'], th: ['colspan', 'rowspan'], td: ['colspan', 'rowspan'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** Everything allowed: the same parser's normalization, to tell whether the allowlist removed anything. */
const PERMISSIVE: sanitizeHtml.IOptions = {
  allowedTags: false,
  allowedAttributes: false,
  allowVulnerableTags: true,
  allowedSchemesByTag: {},
  allowedSchemes: ['http', 'https', 'mailto', 'ftp', 'tel', 'data', 'javascript', 'vbscript', 'file'],
};

/**
 * Allowlist sanitizing with sanitize-html; links to hosts outside `trustedHosts` lose their address
 * (their text stays), so a sanitized answer cannot carry a data-leaking URL.
 */
export function sanitizeAllowlist(text: string, trustedHosts: readonly string[]): string {
  return sanitizeHtml(text, {
    ...ALLOWLIST,
    transformTags: {
      a: (tagName, attribs) => {
        const href = attribs['href'];
        const keep = href !== undefined && ['relative', 'trusted'].includes(classifyUrl(href, trustedHosts, 'link'));
        const { href: _dropped, ...rest } = attribs;
        return { tagName, attribs: keep ? { ...rest, href } : rest };
      },
    },
  });
}

/** Escapes or allowlist-sanitizes HTML in model output. */
export function handleHtml(text: string, mode: HtmlMode, trustedHosts: readonly string[]): HtmlResult {
  const tagLike = TAG_LIKE.test(text);
  if (mode === 'escape') return { text: escapeHtml(text), stripped: tagLike };
  const sanitized = sanitizeAllowlist(text, trustedHosts);
  return { text: sanitized, stripped: tagLike && sanitized !== sanitizeHtml(text, PERMISSIVE) };
}
