import { readdirSync } from 'node:fs';
import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';
import { S3TestServer } from './s3-test-server';

const ROTATION = `# Signing key rotation

A new signing key is published in the JWKS one cache lifetime before it signs any token.
`;
const ROTATION_V2 = ROTATION.replace('one cache lifetime', 'two cache lifetimes');
const VANISHED =
  '# Vanished notes\n\nThese notes are removed from the bucket before the worker reads them.\n';

const S3 = {
  bucket: 'kb-originals',
  region: 'eu-west-1',
  accessKeyId: 'AKIAKBTEST',
  secretAccessKey: 'kb-test-secret-key',
};

describe('kb-api with its originals in an S3-compatible bucket', () => {
  let s3: S3TestServer;
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle | undefined;
  let token: string;
  let otherTenant: string;
  const client = () => new KbClient(svc.url);
  const ingest = (documents: object[], as = token) =>
    client().call('POST', '/api/kb/ingest', { token: as, body: { documents } });
  const documentAt = async (sourcePath: string, tenant = 'default') =>
    (
      await db.query(
        'SELECT id::int AS id, status, error, content_hash FROM kb_documents WHERE tenant_id = $1 AND source_path = $2',
        [tenant, sourcePath],
      )
    )[0] as
      { id: number; status: string; error: string | null; content_hash: string | null } | undefined;
  const waitFor = async (sourcePath: string, status: string) => {
    const deadline = Date.now() + 20_000;
    while ((await documentAt(sourcePath))?.status !== status && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    return documentAt(sourcePath);
  };

  beforeAll(async () => {
    s3 = await new S3TestServer(S3).start();
    ({ svc, db, stop } = await startKb({
      KB_STORAGE_DRIVER: 's3',
      KB_S3_ENDPOINT: s3.url,
      KB_S3_REGION: S3.region,
      KB_S3_BUCKET: S3.bucket,
      KB_S3_PREFIX: 'kb/',
      KB_S3_ACCESS_KEY_ID: S3.accessKeyId,
      KB_S3_SECRET_ACCESS_KEY: S3.secretAccessKey,
      KB_S3_FORCE_PATH_STYLE: 'true',
      KB_S3_TIMEOUT_MS: '5000',
    }));
    await createUser(db, { email: 'editor@example.com', roles: ['viewer'] });
    await createUser(db, { email: 'editor@globex.test', tenant: 'globex', roles: ['viewer'] });
    const login = async (email: string) =>
      (
        await client().call('POST', '/api/auth/token', {
          body: { email, password: 'correct horse battery staple' },
        })
      ).body.token as string;
    token = await login('editor@example.com');
    otherTenant = await login('editor@globex.test');
  });

  afterAll(async () => {
    await worker?.close();
    await stop?.();
    await s3?.stop();
  });

  it('stores each original in the bucket (nothing on disk); the worker indexes from S3 and a vanished object fails like a missing file', async () => {
    expect((await ingest([{ source_path: 'x.md', content: 'x' }], '')).status).toBe(401);
    expect(s3.objects.size).toBe(0);

    const r = await ingest([
      { project_key: 'platform', source_path: 'guides/Signing key rotation.md', content: ROTATION },
      { project_key: 'platform', source_path: 'notes/vanished.md', content: VANISHED },
    ]);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ queued: 2, failed: 0 });
    expect(s3.objects.get('kb/default/platform/guides/Signing key rotation.md')?.toString()).toBe(
      ROTATION,
    );
    expect(s3.objects.get('kb/default/platform/notes/vanished.md')?.toString()).toBe(VANISHED);
    expect(readdirSync(process.env.KB_STORAGE_PATH!)).toEqual([]);
    // The same path in another tenant is another object.
    expect(
      (
        await ingest(
          [
            {
              project_key: 'platform',
              source_path: 'guides/Signing key rotation.md',
              content: '# Globex rotation\n\nOther words.\n',
            },
          ],
          otherTenant,
        )
      ).status,
    ).toBe(202);
    expect(
      s3.objects.get('kb/globex/platform/guides/Signing key rotation.md')?.toString(),
    ).toContain('Globex');

    // Gone from the bucket before any worker reads it.
    s3.objects.delete('kb/default/platform/notes/vanished.md');
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    expect(await waitFor('guides/Signing key rotation.md', 'indexed')).toMatchObject({
      status: 'indexed',
    });
    const vanished = await waitFor('notes/vanished.md', 'failed');
    expect(vanished).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(
        /^ENOENT: no stored original for default\/platform\/notes\/vanished\.md$/,
      ),
    });
    expect(
      s3.requests.filter(
        (q) => q.method === 'GET' && q.key === 'kb/default/platform/guides/Signing key rotation.md',
      ).length,
    ).toBeGreaterThan(0);

    const chat = await client().call('POST', '/api/kb/chat', {
      token,
      body: { question: 'When is a new signing key published in the JWKS?' },
    });
    expect(chat.status).toBe(200);
    expect(chat.body.refusal_reason).toBeNull();
    expect(chat.body.answer).toMatch(/published in the JWKS one cache lifetime/);
    expect(chat.body.citations[0]).toMatchObject({
      source_path: 'guides/Signing key rotation.md',
      project_key: 'platform',
    });
    const search = await client().call('GET', '/api/kb/documents/search?q=signing%20key', {
      token,
    });
    expect(search.status).toBe(200);
    expect(search.body.data.map((d: { source_path: string }) => d.source_path)).toEqual([
      'guides/Signing key rotation.md',
    ]);
  });

  it('answers 207 with each failed write when the bucket refuses PUTs, and leaves nothing half-written', async () => {
    const before = await documentAt('guides/Signing key rotation.md');
    const objectsBefore = new Map(s3.objects);
    s3.failPuts = true;
    try {
      const r = await ingest([
        {
          project_key: 'platform',
          source_path: 'guides/Signing key rotation.md',
          content: ROTATION_V2,
        },
        {
          project_key: 'platform',
          source_path: 'guides/new-page.md',
          content: '# New page\n\nFresh words.\n',
        },
      ]);
      expect(r.status).toBe(207);
      const error =
        'could not store the document: S3 PUT answered 500 InternalError: We encountered an internal error. Please try again.';
      expect(r.body).toEqual({
        queued: 0,
        failed: 2,
        documents: [
          {
            project_key: 'platform',
            source_path: 'guides/Signing key rotation.md',
            status: 'failed',
            error,
          },
          { project_key: 'platform', source_path: 'guides/new-page.md', status: 'failed', error },
        ],
      });
    } finally {
      s3.failPuts = false;
    }
    // The stored original and the indexed version are the previous ones; the new page does not exist anywhere.
    expect(s3.objects).toEqual(objectsBefore);
    expect(await documentAt('guides/Signing key rotation.md')).toEqual(before);
    expect(await documentAt('guides/new-page.md')).toBeUndefined();

    const retried = await ingest([
      {
        project_key: 'platform',
        source_path: 'guides/Signing key rotation.md',
        content: ROTATION_V2,
      },
    ]);
    expect(retried.status).toBe(202);
    expect(s3.objects.get('kb/default/platform/guides/Signing key rotation.md')?.toString()).toBe(
      ROTATION_V2,
    );
    const deadline = Date.now() + 20_000;
    while (
      (await documentAt('guides/Signing key rotation.md'))?.content_hash === before!.content_hash &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 50));
    const chat = await client().call('POST', '/api/kb/chat', {
      token,
      body: { question: 'When is a new signing key published in the JWKS?' },
    });
    expect(chat.body.answer).toMatch(/two cache lifetimes/);
  });

  it('keeps the object on a soft delete and removes it from the bucket on a hard delete by path', async () => {
    const key = 'kb/default/platform/guides/Signing key rotation.md';
    const remove = (force: boolean) =>
      client().call('DELETE', '/api/kb/documents', {
        token,
        body: {
          force,
          documents: [{ project_key: 'platform', source_path: 'guides/Signing key rotation.md' }],
        },
      });
    expect(
      (
        await client().call('DELETE', '/api/kb/documents', {
          body: { documents: [{ source_path: 'a.md' }] },
        })
      ).status,
    ).toBe(401);

    const soft = await remove(false);
    expect(soft.status).toBe(200);
    expect(soft.body.documents[0]).toMatchObject({
      mode: 'soft',
      file_deleted: false,
      status: 'deleted',
    });
    expect(s3.objects.has(key)).toBe(true);

    const hard = await remove(true);
    expect(hard.status).toBe(200);
    expect(hard.body.documents[0]).toMatchObject({
      mode: 'hard',
      file_deleted: true,
      status: 'deleted',
    });
    expect(s3.objects.has(key)).toBe(false);
    expect(s3.requests.at(-1)).toEqual({ method: 'DELETE', key });
    // Another tenant's original of the same path is untouched.
    expect(s3.objects.has('kb/globex/platform/guides/Signing key rotation.md')).toBe(true);
    expect(await documentAt('guides/Signing key rotation.md')).toBeUndefined();
  });
});
