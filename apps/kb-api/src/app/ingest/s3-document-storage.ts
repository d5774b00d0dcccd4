import aws4 from 'aws4';
import { DocumentMissingError, DocumentStorage } from './document-storage';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials (STS) come with one. */
  sessionToken?: string;
}

export interface S3StorageOptions {
  /** Base URL of the S3 API, e.g. `https://s3.eu-central-1.amazonaws.com` or `http://minio:9000`; may carry a path. */
  endpoint: string;
  region: string;
  bucket: string;
  /** Folder inside the bucket that holds every original (`kb/` → `kb/<tenant>/<project>/<path>`). */
  prefix?: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint host>/<key>` (MinIO and most self-hosted stores). */
  forcePathStyle: boolean;
  credentials: S3Credentials;
  /** Bound of one request, body included. */
  timeoutMs: number;
  /** Further attempts after a transient failure (default 2). */
  retries?: number;
  /** The HTTP transport; tests hand in one that resolves virtual-host names locally. */
  fetch?: typeof fetch;
}

/** One segment of an object key as S3 expects it in the URI: every byte outside RFC 3986's unreserved set escaped. */
const encodeSegment = (segment: string) =>
  encodeURIComponent(segment).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** Dot segments would be resolved away by the URL and address another object (keys are checked by DocumentStorage.segmentsOf). */
const badSegment = (segment: string) => segment === '' || segment === '.' || segment === '..';

/**
 * Ingested originals in an S3-compatible bucket. Requests are signed with SigV4 (payload hash
 * included, so the store rejects a body altered in transit) and sent with fetch under a timeout.
 * A PUT either stores the whole object or nothing, so a failed write leaves nothing half-written.
 */
export class S3DocumentStorage extends DocumentStorage {
  private readonly endpoint: URL;
  private readonly prefix: string[];
  private readonly send: typeof fetch;

  constructor(private readonly options: S3StorageOptions) {
    super();
    this.endpoint = new URL(options.endpoint);
    if (!['http:', 'https:'].includes(this.endpoint.protocol))
      throw new Error('the S3 endpoint must be an http(s) URL');
    if (this.endpoint.search || this.endpoint.hash || this.endpoint.username)
      throw new Error('the S3 endpoint must not carry a query, fragment or credentials');
    this.prefix = (options.prefix ?? '').split('/').filter((s) => s !== '');
    if (this.prefix.some(badSegment))
      throw new Error('the S3 key prefix must not contain "." or ".." segments');
    if (!options.bucket) throw new Error('the S3 bucket is not set');
    this.send = options.fetch ?? fetch;
  }

  async write(key: string, data: Buffer): Promise<void> {
    await this.request('PUT', key, data);
  }

  async read(key: string): Promise<Buffer> {
    return this.request('GET', key);
  }

  async remove(key: string): Promise<void> {
    await this.request('DELETE', key);
  }

  private urlOf(key: string): URL {
    const segments = DocumentStorage.segmentsOf(key);
    const url = new URL(this.endpoint);
    const base = url.pathname.replace(/\/+$/, '');
    const objectPath = [...this.prefix, ...segments].map(encodeSegment).join('/');
    if (this.options.forcePathStyle) {
      url.pathname = `${base}/${encodeSegment(this.options.bucket)}/${objectPath}`;
    } else {
      url.hostname = `${this.options.bucket}.${url.hostname}`;
      url.pathname = `${base}/${objectPath}`;
    }
    return url;
  }

  /**
   * One signed request, tried again (re-signed) after a 5xx or a dropped connection, which S3
   * documents as transient (503 SlowDown); a timeout is not retried, it already used the budget.
   * Resolves with the body of a GET; rejects with a message that never holds a secret.
   */
  private async request(
    method: 'PUT' | 'GET' | 'DELETE',
    key: string,
    body?: Buffer,
  ): Promise<Buffer> {
    const url = this.urlOf(key);
    const attempts = 1 + (this.options.retries ?? 2);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(method, url, key, body);
      } catch (e) {
        if (!(e instanceof S3RequestError) || !e.transient || attempt >= attempts) throw e;
        await new Promise((r) => setTimeout(r, RETRY_DELAY_MS * 2 ** (attempt - 1)));
      }
    }
  }

  private async attempt(
    method: 'PUT' | 'GET' | 'DELETE',
    url: URL,
    key: string,
    body?: Buffer,
  ): Promise<Buffer> {
    const signed = aws4.sign(
      {
        service: 's3',
        region: this.options.region,
        method,
        host: url.host,
        path: url.pathname,
        headers: {
          host: url.host,
          ...(body ? { 'content-type': 'application/octet-stream' } : {}),
        },
        body,
      },
      { ...this.options.credentials },
    );
    // fetch derives Host and Content-Length itself, with the values that were signed.
    const headers = Object.fromEntries(
      Object.entries(signed.headers ?? {})
        .filter(([name]) => !['host', 'content-length'].includes(name.toLowerCase()))
        .map(([name, value]) => [name, String(value)]),
    );
    try {
      const response = await this.send(url, {
        method,
        headers,
        body: body ? new Uint8Array(body) : undefined,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (response.ok) return Buffer.from(await response.arrayBuffer());
      const error = await s3ErrorOf(response);
      if (response.status === 404 && error.code !== 'NoSuchBucket') {
        if (method === 'GET') throw new DocumentMissingError(key);
        if (method === 'DELETE') return Buffer.alloc(0);
      }
      throw new S3RequestError(
        `S3 ${method} answered ${response.status}${error.code ? ` ${error.code}` : ''}${error.message ? `: ${error.message}` : ''}`,
        TRANSIENT_STATUSES.includes(response.status),
      );
    } catch (e) {
      if (e instanceof DocumentMissingError || e instanceof S3RequestError) throw e;
      const timedOut = (e as Error)?.name === 'TimeoutError' || (e as Error)?.name === 'AbortError';
      throw new S3RequestError(transportFailure(method, e, this.options.timeoutMs), !timedOut);
    }
  }
}

const TRANSIENT_STATUSES = [500, 502, 503, 504];
const RETRY_DELAY_MS = 100;

/** A request the store refused or that never completed. */
export class S3RequestError extends Error {
  override name = 'S3RequestError';

  constructor(
    message: string,
    /** Worth another attempt: a 5xx or a connection that failed before an answer. */
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** `<Error><Code>…</Code><Message>…</Message></Error>`, as far as the answer has one (a HEAD or a proxy's page has not). */
async function s3ErrorOf(response: Response): Promise<{ code?: string; message?: string }> {
  const text = await response.text().catch(() => '');
  const field = (name: string) =>
    new RegExp(`<${name}>([^<]{1,300})</${name}>`).exec(text)?.[1]?.trim();
  return { code: field('Code'), message: field('Message') };
}

function transportFailure(method: string, e: unknown, timeoutMs: number): string {
  const error = e as Error & { cause?: { code?: string; message?: string } };
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError')
    return `S3 ${method} timed out after ${timeoutMs} ms`;
  const cause = error?.cause?.code ?? error?.cause?.message ?? error?.message ?? String(e);
  return `S3 ${method} failed: ${cause}`;
}
