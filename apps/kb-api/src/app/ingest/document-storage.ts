import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';

/**
 * The original is not in storage. Its `code` is the one a missing file has, so every reader (the
 * ingest worker failing the job, reindex answering 409 original_missing) treats a driver's "no such
 * object" exactly like a deleted file on disk.
 */
export class DocumentMissingError extends Error {
  readonly code = 'ENOENT';

  constructor(key: string) {
    super(`ENOENT: no stored original for ${key}`);
    this.name = 'DocumentMissingError';
  }
}

/** Where ingested originals live; the injection token of every storage driver. */
export abstract class DocumentStorage {
  /**
   * `<tenant>/<project>/<source_path>`; every part was validated before it gets here. One layout for
   * every driver, so the keys stored on documents stay valid when the driver changes.
   */
  keyOf(tenantId: string, projectKey: string, sourcePath: string): string {
    // encodeURIComponent leaves "." and ".." as they are; escaped, they can never name a parent folder.
    const project = encodeURIComponent(projectKey).replace(/^\.{1,2}$/, (dots) => dots.replace(/\./g, '%2E'));
    return [tenantId, project, sourcePath].join('/');
  }

  /**
   * The key's segments, refused when one is empty, "." or "..": keyOf never makes such a key, and
   * every driver would resolve one into another key (another project's or tenant's original).
   */
  protected static segmentsOf(key: string): string[] {
    const segments = key.split('/');
    if (segments.length < 3 || segments.some((s) => s === '' || s === '.' || s === '..')) throw new Error('storage key is not a valid document key');
    return segments;
  }

  abstract write(key: string, data: Buffer): Promise<void>;
  /** Rejects with an error whose `code` is `ENOENT` (see DocumentMissingError) when the original is gone. */
  abstract read(key: string): Promise<Buffer>;
  /** Removing an original that is already gone succeeds. */
  abstract remove(key: string): Promise<void>;
}

/**
 * Ingested originals in a local directory (the default driver). Writes are atomic (temporary file,
 * then rename), so a reader never sees half a document and a failed write leaves nothing behind.
 */
export class LocalDocumentStorage extends DocumentStorage {
  constructor(private readonly root: string) {
    super();
  }

  private fileOf(key: string): string {
    const file = path.resolve(this.root, ...DocumentStorage.segmentsOf(key));
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error('storage key escapes the storage root');
    return file;
  }

  async write(key: string, data: Buffer): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${randomUUID()}.tmp`;
    try {
      await writeFile(tmp, data);
      await rename(tmp, file);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await readFile(this.fileOf(key));
    } catch (e) {
      // The same error as every driver's, naming the key rather than this machine's folders.
      if ((e as { code?: unknown }).code === 'ENOENT') throw new DocumentMissingError(key);
      throw e;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.fileOf(key), { force: true });
  }
}
