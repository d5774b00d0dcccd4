import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { MIME_TYPES, sourceTypeOf } from '../../ingest/convert';
import { normalizeSourcePath } from '../../ingest/source-path';
import { AddressPolicy } from '@platform/runtime';
import { CONNECTOR_LIMITS } from './connector-settings';
import { fetchPage } from './web-fetch';

/** One document a connector found: its content, or why it could not be read. */
export type SourceItem = { sourcePath: string; mimeType: string; bytes: Buffer; origin: string } | { sourcePath: string; error: string };

const EXTENSIONS: Record<string, string> = {
  '.md': MIME_TYPES.markdown[0],
  '.markdown': MIME_TYPES.markdown[0],
  '.txt': MIME_TYPES.text[0],
  '.html': MIME_TYPES.html[0],
  '.htm': MIME_TYPES.html[0],
  '.pdf': MIME_TYPES.pdf[0],
  '.docx': MIME_TYPES.docx[0],
};

/** Whether `dir` (resolved through symlinks) lies inside one of the roots; returns the resolved directory. */
export async function directoryUnder(dir: string, roots: string[]): Promise<string | null> {
  let real: string;
  try {
    real = await realpath(dir);
    if (!(await lstat(real)).isDirectory()) return null;
  } catch {
    return null;
  }
  for (const root of roots) {
    const r = await realpath(root).catch(() => null);
    if (r && (real === r || real.startsWith(r + path.sep))) return real;
  }
  return null;
}

/**
 * The documents under a directory: files of a known type, hidden entries and symlinks skipped
 * (a link could lead out of the allowed root), at most maxFiles of them, each within maxFileBytes.
 */
export async function* readDirectory(dir: string): AsyncGenerator<SourceItem> {
  let yielded = 0;
  const pending = [''];
  while (pending.length) {
    const rel = pending.shift()!;
    let entries;
    try {
      entries = (await readdir(path.join(dir, rel), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    } catch (e) {
      // An unreadable folder fails alone; the rest of the tree is still read.
      yield { sourcePath: rel || '.', error: `cannot read the folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
      continue;
    }
    for (const e of entries) {
      if (e.name.startsWith('.') || e.isSymbolicLink()) continue;
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        pending.push(relPath);
        continue;
      }
      const mimeType = EXTENSIONS[path.extname(e.name).toLowerCase()];
      if (!e.isFile() || !mimeType) continue;
      if (++yielded > CONNECTOR_LIMITS.maxFiles) {
        yield { sourcePath: relPath, error: `more than ${CONNECTOR_LIMITS.maxFiles} files: the rest is left for a narrower connector` };
        return;
      }
      const sourcePath = normalizeSourcePath(relPath);
      if (!sourcePath) {
        yield { sourcePath: relPath, error: 'the file name cannot be a document path' };
        continue;
      }
      const file = path.join(dir, relPath);
      try {
        const { size } = await lstat(file);
        if (size > CONNECTOR_LIMITS.maxFileBytes) yield { sourcePath, error: `larger than ${CONNECTOR_LIMITS.maxFileBytes} bytes` };
        else if (size === 0) yield { sourcePath, error: 'empty file' };
        else yield { sourcePath, mimeType, bytes: await readFile(file), origin: `file:${relPath}` };
      } catch (e) {
        yield { sourcePath, error: `cannot read the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
      }
    }
  }
}

/** `https://docs.example.org:8443/guide/?v=2` → `docs.example.org-8443/guide/index.html-<hash of the query>`. */
export function sourcePathOfUrl(raw: string): string | null {
  const u = new URL(raw);
  let p = `${u.hostname}${u.port ? `-${u.port}` : ''}${decodeURIComponent(u.pathname)}`;
  if (p.endsWith('/')) p += 'index.html';
  if (u.search) p += `-${createHash('sha256').update(u.search).digest('hex').slice(0, 10)}`;
  return normalizeSourcePath(p);
}

/** The pages of a web connector, fetched one by one under the address policy and the caps. */
export async function* fetchUrls(urls: string[], policy: AddressPolicy): AsyncGenerator<SourceItem> {
  for (const url of urls) {
    const sourcePath = sourcePathOfUrl(url);
    if (!sourcePath) {
      yield { sourcePath: url, error: 'the URL cannot be a document path' };
      continue;
    }
    try {
      const page = await fetchPage(url, policy, { maxBytes: CONNECTOR_LIMITS.maxPageBytes, timeoutMs: CONNECTOR_LIMITS.fetchTimeoutMs, maxRedirects: CONNECTOR_LIMITS.maxRedirects });
      // A page that names no type is taken for HTML, as browsers do.
      const mimeType = (page.contentType.split(';')[0].trim() || 'text/html').toLowerCase();
      const type = sourceTypeOf(mimeType);
      if (!type || type === 'pdf' || type === 'docx') yield { sourcePath, error: `unsupported content type ${mimeType}` };
      else if (page.body.length === 0) yield { sourcePath, error: 'empty page' };
      else yield { sourcePath, mimeType, bytes: page.body, origin: page.url };
    } catch (e) {
      yield { sourcePath, error: `${url}: ${(e as Error).message}` };
    }
  }
}
