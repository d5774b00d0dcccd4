import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { loadEnv } from '@platform/config';
import { Agent, fetch as undiciFetch } from 'undici';
import { S3TestServer } from '../../../test/s3-test-server';
import { KbApiEnv } from '../../config/env';
import { createDocumentStorage } from './document-storage.provider';
import { DocumentMissingError, LocalDocumentStorage } from './document-storage';
import { S3DocumentStorage, S3StorageOptions } from './s3-document-storage';

const CREDENTIALS = {
  accessKeyId: 'AKIATESTKEY',
  secretAccessKey: 'test-secret-that-must-never-leak',
};

describe('S3DocumentStorage against an S3-compatible server that checks every signature', () => {
  let s3: S3TestServer;
  const storage = (o: Partial<S3StorageOptions> = {}) =>
    new S3DocumentStorage({
      endpoint: s3.url,
      region: 'eu-central-1',
      bucket: 'kb-docs',
      forcePathStyle: true,
      credentials: CREDENTIALS,
      timeoutMs: 5_000,
      ...o,
    });

  beforeAll(async () => {
    s3 = await new S3TestServer({
      bucket: 'kb-docs',
      region: 'eu-central-1',
      ...CREDENTIALS,
    }).start();
  });

  afterAll(() => s3.stop());

  beforeEach(() => {
    s3.objects.clear();
    s3.failPuts = false;
    s3.failNextRequests = 0;
    s3.delayMs = 0;
    s3.requests.length = 0;
  });

  it('writes, reads and removes an original under the key prefix', async () => {
    const store = storage({ prefix: '/kb/originals/' });
    const key = store.keyOf('acme', 'platform', 'guides/rotation.md');
    const bytes = randomBytes(64 * 1024);
    await store.write(key, bytes);
    expect([...s3.objects.keys()]).toEqual(['kb/originals/acme/platform/guides/rotation.md']);
    expect((await store.read(key)).equals(bytes)).toBe(true);
    await store.write(key, Buffer.from('second version'));
    expect((await store.read(key)).toString()).toBe('second version');
    await store.remove(key);
    expect(s3.objects.size).toBe(0);
    // Removing what is already gone succeeds, like the local driver.
    await expect(store.remove(key)).resolves.toBeUndefined();
  });

  it('keeps keys with spaces, reserved characters and non-Latin letters intact', async () => {
    const store = storage();
    const paths = [
      'Q3 report (final)!.md',
      'a+b=c&d?e#f.md',
      "it's 100% *done*.md",
      'Übersicht/日本語 ファイル.md',
      'semi;colon,comma@at$dollar~tilde.md',
    ];
    for (const [i, sourcePath] of paths.entries()) {
      const key = store.keyOf('acme', 'R&D / Ops', sourcePath);
      await store.write(key, Buffer.from(`document ${i}`));
      expect((await store.read(key)).toString()).toBe(`document ${i}`);
    }
    expect([...s3.objects.keys()].sort()).toEqual(
      paths.map((p) => `acme/R%26D%20%2F%20Ops/${p}`).sort(),
    );
  });

  it('addresses the bucket as a virtual host unless path-style is forced', async () => {
    // Resolves every name to the test server, so `kb-docs.s3.test` reaches it with that Host header.
    const agent = new Agent({
      connect: {
        lookup: (_host, options, callback) =>
          (options as { all?: boolean }).all
            ? (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
                { address: '127.0.0.1', family: 4 },
              ])
            : callback(null, '127.0.0.1', 4),
      },
    });
    const viaLocalDns = ((url: URL, init: RequestInit) =>
      undiciFetch(url, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;
    const store = storage({
      endpoint: s3.url.replace('127.0.0.1', 's3.test'),
      forcePathStyle: false,
      fetch: viaLocalDns,
    });
    await store.write('acme/p/hosted.md', Buffer.from('by host'));
    expect(s3.objects.get('acme/p/hosted.md')?.toString()).toBe('by host');
    expect((await store.read('acme/p/hosted.md')).toString()).toBe('by host');
    await agent.close();
  });

  it('signs the session token of temporary credentials', async () => {
    const temporary = await new S3TestServer({
      bucket: 'kb-docs',
      region: 'eu-central-1',
      ...CREDENTIALS,
      sessionToken: 'sts-token',
    }).start();
    try {
      const options = {
        endpoint: temporary.url,
        region: 'eu-central-1',
        bucket: 'kb-docs',
        forcePathStyle: true,
        timeoutMs: 5_000,
      };
      await new S3DocumentStorage({
        ...options,
        credentials: { ...CREDENTIALS, sessionToken: 'sts-token' },
      }).write('t/p/a.md', Buffer.from('x'));
      expect(temporary.objects.has('t/p/a.md')).toBe(true);
      await expect(
        new S3DocumentStorage({ ...options, credentials: CREDENTIALS }).read('t/p/a.md'),
      ).rejects.toThrow(/403 AccessDenied/);
    } finally {
      await temporary.stop();
    }
  });

  it('fails with the answer of the store, never the secret, when the signature is wrong', async () => {
    const store = storage({
      credentials: { accessKeyId: CREDENTIALS.accessKeyId, secretAccessKey: 'wrong-secret' },
    });
    const failure = await store.write('acme/p/a.md', Buffer.from('x')).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^S3 PUT answered 403 SignatureDoesNotMatch: /);
    expect((failure as Error).message).not.toContain('wrong-secret');
    expect(s3.objects.size).toBe(0);
    await expect(
      storage({
        credentials: { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: CREDENTIALS.secretAccessKey },
      }).read('acme/p/a.md'),
    ).rejects.toThrow(/403 InvalidAccessKeyId/);
    await expect(storage({ region: 'us-west-2' }).read('acme/p/a.md')).rejects.toThrow(
      /400 AuthorizationHeaderMalformed/,
    );
    await expect(storage({ bucket: 'other-bucket' }).read('acme/p/a.md')).rejects.toThrow(
      /404 NoSuchBucket/,
    );
  });

  it('tries a transient 5xx again, signing each attempt anew', async () => {
    s3.failNextRequests = 2;
    await storage().write('acme/p/a.md', Buffer.from('third time lucky'));
    expect(s3.requests).toEqual(
      Array.from({ length: 3 }, () => ({ method: 'PUT', key: 'acme/p/a.md' })),
    );
    expect(s3.objects.get('acme/p/a.md')?.toString()).toBe('third time lucky');
  });

  it('fails a write the store keeps answering with 5xx and stores nothing', async () => {
    s3.failPuts = true;
    await expect(storage().write('acme/p/a.md', Buffer.from('x'))).rejects.toThrow(
      'S3 PUT answered 500 InternalError: We encountered an internal error. Please try again.',
    );
    expect(s3.requests.filter((r) => r.method === 'PUT')).toHaveLength(3);
    expect(s3.objects.size).toBe(0);
    s3.requests.length = 0;
    await expect(storage({ retries: 0 }).write('acme/p/a.md', Buffer.from('x'))).rejects.toThrow(
      /500 InternalError/,
    );
    expect(s3.requests).toHaveLength(1);
  });

  it('does not retry what a retry cannot fix (4xx)', async () => {
    const before = s3.received;
    await expect(
      storage({ credentials: { ...CREDENTIALS, secretAccessKey: 'wrong' } }).read('acme/p/a.md'),
    ).rejects.toThrow(/403/);
    await expect(storage().read('acme/p/a.md')).rejects.toThrow(DocumentMissingError);
    expect(s3.received - before).toBe(2);
  });

  it('reports a missing original the way a missing file is reported (ENOENT)', async () => {
    const failure = await storage()
      .read('acme/p/gone.md')
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DocumentMissingError);
    expect(failure).toMatchObject({ code: 'ENOENT' });
    // The same code the local driver's missing file carries.
    const local = await new LocalDocumentStorage('/nonexistent-kb-root')
      .read('acme/p/gone.md')
      .catch((e: unknown) => e);
    expect(local).toMatchObject({ code: (failure as DocumentMissingError).code });
  });

  it('gives up after the timeout and names it', async () => {
    s3.delayMs = 1_000;
    await expect(storage({ timeoutMs: 100 }).read('acme/p/a.md')).rejects.toThrow(
      'S3 GET timed out after 100 ms',
    );
  });

  it('names the transport failure when the store cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    await expect(
      storage({ endpoint: `http://127.0.0.1:${port}` }).read('acme/p/a.md'),
    ).rejects.toThrow('S3 GET failed: ECONNREFUSED');
  });

  it('refuses keys and prefixes that a URL would resolve to another object', async () => {
    await expect(storage().read('acme/../other/secret.md')).rejects.toThrow(
      'storage key is not a valid document key',
    );
    expect(() => storage({ prefix: 'kb/../x' })).toThrow(/prefix/);
    expect(() => storage({ endpoint: 'ftp://example.com' })).toThrow(/http/);
  });
});

describe('document keys on every driver', () => {
  it('escapes a project key of dots, so it names a folder of its own', () => {
    const local = new LocalDocumentStorage('/kb');
    expect(local.keyOf('acme', '..', 'beta/default/secret.md')).toBe('acme/%2E%2E/beta/default/secret.md');
    expect(local.keyOf('acme', '.', 'a.md')).toBe('acme/%2E/a.md');
    expect(local.keyOf('acme', '...', 'a.md')).toBe('acme/.../a.md');
    expect(local.keyOf('acme', 'a/b', 'c.md')).toBe('acme/a%2Fb/c.md');
  });

  it('refuses, on the local driver too, a key with an empty, "." or ".." segment (another tenant or project)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kb-keys-'));
    const local = new LocalDocumentStorage(root);
    await local.write('beta/default/secret.md', Buffer.from('beta'));
    for (const key of ['acme/../beta/default/secret.md', 'acme/./default/x.md', 'acme//x.md', 'acme/x.md', '../x/y.md']) {
      await expect(local.read(key)).rejects.toThrow('storage key is not a valid document key');
      await expect(local.write(key, Buffer.from('acme'))).rejects.toThrow('storage key is not a valid document key');
      await expect(local.remove(key)).rejects.toThrow('storage key is not a valid document key');
    }
    expect((await local.read('beta/default/secret.md')).toString()).toBe('beta');
  });

  it('reports a missing local original by its key, not by a path of the machine', async () => {
    const failure = await new LocalDocumentStorage('/nonexistent-kb-root').read('acme/p/gone.md').catch((e: unknown) => e);
    expect((failure as Error).message).toBe('ENOENT: no stored original for acme/p/gone.md');
  });
});

describe('choosing the storage driver from env', () => {
  const required = {
    CRYPTO_KEYRING: `k1:${randomBytes(32).toString('base64')}`,
    SECRET_PEPPERS: `p1:${randomBytes(32).toString('base64')}`,
  };

  it('keeps the local driver by default', () => {
    expect(createDocumentStorage(loadEnv(KbApiEnv, required))).toBeInstanceOf(LocalDocumentStorage);
  });

  it('builds the s3 driver from KB_S3_*', () => {
    const env = loadEnv(KbApiEnv, {
      ...required,
      KB_STORAGE_DRIVER: 's3',
      KB_S3_BUCKET: 'kb-docs',
      KB_S3_ACCESS_KEY_ID: 'AK',
      KB_S3_SECRET_ACCESS_KEY: 'SK',
      KB_S3_FORCE_PATH_STYLE: 'true',
    });
    expect(env).toMatchObject({
      KB_S3_REGION: 'us-east-1',
      KB_S3_FORCE_PATH_STYLE: true,
      KB_S3_TIMEOUT_MS: 30_000,
    });
    expect(createDocumentStorage(env)).toBeInstanceOf(S3DocumentStorage);
  });

  it('fails boot naming each missing variable, without echoing a secret', () => {
    const boot = () =>
      loadEnv(KbApiEnv, {
        ...required,
        KB_STORAGE_DRIVER: 's3',
        KB_S3_SECRET_ACCESS_KEY: 'do-not-print-me',
      });
    expect(boot).toThrow(/KB_S3_BUCKET is required when KB_STORAGE_DRIVER=s3/);
    expect(boot).toThrow(/KB_S3_ACCESS_KEY_ID is required when KB_STORAGE_DRIVER=s3/);
    expect(boot).not.toThrow(/do-not-print-me|KB_S3_SECRET_ACCESS_KEY/);
    expect(() =>
      loadEnv(KbApiEnv, {
        ...required,
        KB_STORAGE_DRIVER: 's3',
        KB_S3_BUCKET: 'kb-docs',
        KB_S3_ACCESS_KEY_ID: 'AK',
      }),
    ).toThrow(/KB_S3_SECRET_ACCESS_KEY is required/);
    expect(() => loadEnv(KbApiEnv, { ...required, KB_STORAGE_DRIVER: 'ftp' })).toThrow(
      /KB_STORAGE_DRIVER/,
    );
  });
});
