import { hasLoneSurrogate } from '../validation/lone-surrogate';

/**
 * A document's path inside its project: backslashes become slashes, repeated slashes collapse and
 * outer slashes are trimmed. An empty path or a `.`/`..` segment is refused (null): a path may
 * never climb out of its project's folder. So is a lone surrogate: stored as U+FFFD, "\ud800" and
 * "\udc00" would name one document.
 */
export function normalizeSourcePath(raw: string): string | null {
  if (hasLoneSurrogate(raw)) return null;
  const path = raw.replace(/\\/g, '/').replace(/\/{2,}/g, '/').replace(/^\/+|\/+$/g, '');
  if (path === '' || path.split('/').some((s) => s === '.' || s === '..' || s.trim() === '')) return null;
  if ([...path].some((ch) => ch.charCodeAt(0) < 0x20)) return null;
  return path;
}

/** `guides/Getting Started.md` → `getting-started` (the `[[slug]]` a wikilink names). */
export function slugOf(sourcePath: string): string {
  const file = sourcePath.split('/').pop() ?? sourcePath;
  return (
    file
      .replace(/\.[A-Za-z0-9]{1,8}$/, '')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'document'
  );
}
