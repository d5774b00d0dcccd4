import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface S3TestServerOptions {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** When set, every request must carry it in x-amz-security-token. */
  sessionToken?: string;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) =>
  createHmac('sha256', key).update(data).digest();

/** RFC 3986 escaping of every byte outside the unreserved set, as SigV4 canonicalises a URI segment. */
function uriEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch)
      ? ch
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

class S3Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A small in-memory S3 for tests: PUT, GET, HEAD and DELETE of objects in one bucket, addressed
 * path-style (`/<bucket>/<key>`) or virtual-host style (`Host: <bucket>.…`). Every request's SigV4
 * signature is recomputed here from its canonical request (independently of the client's signer)
 * and a mismatch answers 403 SignatureDoesNotMatch, as S3 does.
 */
export class S3TestServer {
  /** Stored objects by key (without the bucket). */
  readonly objects = new Map<string, Buffer>();
  /** Requests received, refused ones included. */
  received = 0;
  /** Every request that passed the signature check: method and object key. */
  readonly requests: { method: string; key: string }[] = [];
  /** Fault switch: every PUT answers 500 InternalError and stores nothing. */
  failPuts = false;
  /** Fault switch: this many next requests answer 503 SlowDown (S3's ask to retry). */
  failNextRequests = 0;
  /** Delay before answering, to exercise client timeouts. */
  delayMs = 0;
  private server?: Server;

  constructor(readonly options: S3TestServerOptions) {}

  get url(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    this.received++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    try {
      this.verify(req, body);
      const key = this.keyOf(req);
      this.requests.push({ method: req.method!, key });
      if (this.failNextRequests > 0) {
        this.failNextRequests--;
        throw new S3Refusal(503, 'SlowDown', 'Please reduce your request rate.');
      }
      this.serve(req.method!, key, body, res);
    } catch (caught) {
      const e =
        caught instanceof S3Refusal
          ? caught
          : new S3Refusal(400, 'InvalidRequest', (caught as Error).message);
      res.writeHead(e.status, { 'content-type': 'application/xml' });
      res.end(
        req.method === 'HEAD'
          ? undefined
          : `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${e.code}</Code><Message>${e.message}</Message></Error>`,
      );
    }
  }

  private serve(method: string, key: string, body: Buffer, res: ServerResponse) {
    const stored = this.objects.get(key);
    switch (method) {
      case 'PUT':
        if (this.failPuts)
          throw new S3Refusal(
            500,
            'InternalError',
            'We encountered an internal error. Please try again.',
          );
        this.objects.set(key, body);
        res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` }).end();
        return;
      case 'GET':
      case 'HEAD':
        if (!stored) throw new S3Refusal(404, 'NoSuchKey', 'The specified key does not exist.');
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': stored.length,
        });
        res.end(method === 'GET' ? stored : undefined);
        return;
      case 'DELETE':
        this.objects.delete(key);
        res.writeHead(204).end();
        return;
      default:
        throw new S3Refusal(
          405,
          'MethodNotAllowed',
          'The specified method is not allowed against this resource.',
        );
    }
  }

  /** The object key, from the path (path-style) or after the bucket sub-domain (virtual-host style). */
  private keyOf(req: IncomingMessage): string {
    const segments = req.url!.split('?')[0].split('/').slice(1).map(decodeURIComponent);
    const virtualHost = req.headers.host!.startsWith(`${this.options.bucket}.`);
    const bucket = virtualHost ? this.options.bucket : segments.shift();
    if (bucket !== this.options.bucket)
      throw new S3Refusal(404, 'NoSuchBucket', 'The specified bucket does not exist.');
    const key = segments.join('/');
    if (!key) throw new S3Refusal(400, 'InvalidRequest', 'An object key is required.');
    return key;
  }

  private verify(req: IncomingMessage, body: Buffer) {
    const auth =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        req.headers.authorization ?? '',
      );
    if (!auth)
      throw new S3Refusal(403, 'AccessDenied', 'A SigV4 Authorization header is required.');
    const [, accessKeyId, date, region, signedHeaderList, signature] = auth;
    if (accessKeyId !== this.options.accessKeyId)
      throw new S3Refusal(
        403,
        'InvalidAccessKeyId',
        'The access key id does not exist in our records.',
      );
    if (region !== this.options.region)
      throw new S3Refusal(
        400,
        'AuthorizationHeaderMalformed',
        `The region '${region}' is wrong; expecting '${this.options.region}'.`,
      );
    const header = (name: string) => {
      const value = req.headers[name];
      return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
    };
    const amzDate = header('x-amz-date');
    if (!/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== date)
      throw new S3Refusal(
        403,
        'AccessDenied',
        'x-amz-date is missing or disagrees with the credential scope.',
      );
    const at = Date.UTC(
      +amzDate.slice(0, 4),
      +amzDate.slice(4, 6) - 1,
      +amzDate.slice(6, 8),
      +amzDate.slice(9, 11),
      +amzDate.slice(11, 13),
      +amzDate.slice(13, 15),
    );
    if (Math.abs(Date.now() - at) > 15 * 60_000)
      throw new S3Refusal(
        403,
        'RequestTimeTooSkewed',
        'The difference between the request time and the current time is too large.',
      );
    const signedHeaders = signedHeaderList.split(';');
    for (const required of [
      'host',
      'x-amz-date',
      'x-amz-content-sha256',
      ...(this.options.sessionToken ? ['x-amz-security-token'] : []),
    ]) {
      if (!signedHeaders.includes(required))
        throw new S3Refusal(403, 'AccessDenied', `The ${required} header must be signed.`);
    }
    if (this.options.sessionToken && header('x-amz-security-token') !== this.options.sessionToken)
      throw new S3Refusal(
        403,
        'InvalidToken',
        'The provided token is malformed or otherwise invalid.',
      );
    const payloadHash = header('x-amz-content-sha256');
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body))
      throw new S3Refusal(
        400,
        'XAmzContentSHA256Mismatch',
        'The provided x-amz-content-sha256 header does not match what was computed.',
      );

    const [rawPath, rawQuery = ''] = req.url!.split('?');
    const canonicalUri = rawPath
      .split('/')
      .map((s) => uriEncode(decodeURIComponent(s)))
      .join('/');
    const canonicalQuery = rawQuery
      .split('&')
      .filter(Boolean)
      .map((pair) =>
        pair.split('=').map((p) => uriEncode(decodeURIComponent(p.replace(/\+/g, ' ')))),
      )
      .sort(([a, av = ''], [b, bv = '']) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
      .map(([k, v = '']) => `${k}=${v}`)
      .join('&');
    const canonicalRequest = [
      req.method,
      canonicalUri,
      canonicalQuery,
      ...signedHeaders.map((h) => `${h}:${header(h)}`),
      '',
      signedHeaderList,
      payloadHash,
    ].join('\n');
    const scope = `${date}/${region}/s3/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
    const signingKey = ['s3', 'aws4_request'].reduce(
      (key, part) => hmac(key, part),
      hmac(hmac(`AWS4${this.options.secretAccessKey}`, date), region),
    );
    const expected = hmac(signingKey, stringToSign);
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
      throw new S3Refusal(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      );
  }
}
