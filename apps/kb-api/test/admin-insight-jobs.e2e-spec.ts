import { mkdtempSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const ROTATION = `# Signing key rotation

A new signing key is published in the JWKS at least one cache lifetime before it signs, so offline verifiers never meet an unknown key id.
`;
const LIFETIMES = `# Token lifetimes

Access tokens live fifteen minutes by default. Refresh tokens rotate on every use.
`;
const HOURS = `# Opening hours

The support desk is open Monday to Friday and answers within a day.
`;

jest.setTimeout(60_000);

describe('kb-api admin insight: failed jobs and insights', () => {
  const storage = mkdtempSync(path.join(tmpdir(), 'kb-insight-'));
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle | undefined;
  const who: Record<'viewer' | 'editor' | 'admin' | 'superAdmin' | 'otherAdmin', Caller> =
    {} as never;
  const as = (caller: Caller | undefined, method: string, url: string, body?: unknown) =>
    new KbClient(svc.url).call(method, url, { token: caller?.token, body });
  const waitFor = async (check: () => Promise<boolean>, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const docStatus = async (sourcePath: string) =>
    (await db.query('SELECT status FROM kb_documents WHERE source_path = $1', [sourcePath]))[0]
      ?.status as string | undefined;
  const failedTotal = async () =>
    (await as(who.admin, 'GET', '/api/admin/logs/failed-jobs')).body.total as number;

  /**
   * Ingests a document whose stored file is then moved away: the real ingest job fails on every
   * attempt. Gives back how to put the file back.
   */
  const ingestBroken = async (sourcePath: string, content: string) => {
    const r = await as(who.admin, 'POST', '/api/kb/ingest', {
      documents: [{ project_key: 'platform', source_path: sourcePath, content }],
    });
    expect(r.status).toBe(202);
    const [doc] = await db.query(
      'SELECT id, storage_key FROM kb_documents WHERE source_path = $1',
      [sourcePath],
    );
    const file = path.join(storage, doc.storage_key);
    await rename(file, `${file}.away`);
    return { documentId: String(doc.id), restore: () => rename(`${file}.away`, file) };
  };

  beforeAll(async () => {
    process.env.KB_STORAGE_PATH_OVERRIDE = storage;
    ({ svc, db, stop } = await startKb());
    delete process.env.KB_STORAGE_PATH_OVERRIDE;
    who.viewer = await callerWith(svc.url, db, { email: 'viewer@jobs.test', roles: ['viewer'] });
    who.editor = await callerWith(svc.url, db, { email: 'editor@jobs.test', roles: ['editor'] });
    who.admin = await callerWith(svc.url, db, { email: 'admin@jobs.test', roles: ['admin'] });
    who.superAdmin = await callerWith(svc.url, db, {
      email: 'super@jobs.test',
      roles: ['super-admin'],
    });
    who.otherAdmin = await callerWith(svc.url, db, {
      email: 'admin@other-jobs.test',
      roles: ['admin'],
      tenant: 'other',
    });
  });
  afterAll(async () => {
    await worker?.close();
    await stop?.();
    await rm(storage, { recursive: true, force: true });
  });

  describe('failed jobs', () => {
    it('lists a really failed ingest job, retries it into an indexed document, and removes another', async () => {
      // Both broken before any worker runs, so neither can be indexed first.
      const retryMe = await ingestBroken('broken/retry-me.md', LIFETIMES);
      const removeMe = await ingestBroken('broken/remove-me.md', HOURS);
      worker = await startWorker((await import('../src/worker.module')).WorkerModule);
      await waitFor(async () => (await failedTotal()) === 2);

      const list = await as(who.admin, 'GET', '/api/admin/logs/failed-jobs');
      const byDocument = (id: string) =>
        list.body.data.find(
          (j: { data: { documentId: unknown } }) => String(j.data.documentId) === id,
        );
      const job = byDocument(retryMe.documentId);
      const gone = byDocument(removeMe.documentId);
      expect(job).toMatchObject({
        queue: 'kb.ingest',
        name: 'IngestDocumentJob',
        attempts_made: 3,
        max_attempts: 3,
        data: { tenantId: 'default' },
        failed_at: expect.any(String),
      });
      expect(job.failed_reason).toContain('ENOENT');
      expect(await docStatus('broken/retry-me.md')).toBe('failed');
      expect(
        (await as(who.admin, 'GET', '/api/admin/logs/failed-jobs?search=enoent')).body.total,
      ).toBe(2);
      expect(
        (await as(who.admin, 'GET', '/api/admin/logs/failed-jobs?per_page=1')).body,
      ).toMatchObject({ total: 2, last_page: 2 });
      expect(
        (await as(who.admin, 'GET', '/api/admin/logs/failed-jobs?search=nothing-like-this')).body
          .total,
      ).toBe(0);
      expect(
        (
          await as(
            who.admin,
            'GET',
            `/api/admin/logs/failed-jobs?from=${new Date(Date.now() + 60_000).toISOString()}`,
          )
        ).body.total,
      ).toBe(0);
      expect(
        (await as(who.admin, 'GET', '/api/admin/logs/failed-jobs?queue=iam.maintenance')).status,
      ).toBe(422);

      // Another tenant neither sees nor touches it.
      expect((await as(who.otherAdmin, 'GET', '/api/admin/logs/failed-jobs')).body.total).toBe(0);
      expect(
        (await as(who.otherAdmin, 'POST', `/api/admin/logs/failed-jobs/${job.id}/retry`)).status,
      ).toBe(404);
      expect(
        (await as(who.otherAdmin, 'DELETE', `/api/admin/logs/failed-jobs/${job.id}`)).status,
      ).toBe(404);
      for (const denied of [who.viewer, who.editor])
        expect(
          (await as(denied, 'POST', `/api/admin/logs/failed-jobs/${job.id}/retry`)).status,
        ).toBe(403);

      // The cause is fixed (the file is back); the retry runs the same job again, with fresh attempts.
      await retryMe.restore();
      const retried = await as(who.admin, 'POST', `/api/admin/logs/failed-jobs/${job.id}/retry`);
      expect(retried.status).toBe(202);
      expect(retried.body.data).toMatchObject({ id: job.id, queue: 'kb.ingest' });
      await waitFor(async () => (await docStatus('broken/retry-me.md')) === 'indexed');
      expect(await failedTotal()).toBe(1);
      expect(
        (await as(who.admin, 'POST', `/api/admin/logs/failed-jobs/${job.id}/retry`)).status,
      ).toBe(404);

      expect((await as(who.admin, 'DELETE', `/api/admin/logs/failed-jobs/${gone.id}`)).status).toBe(
        204,
      );
      expect(await failedTotal()).toBe(0);
      expect((await as(who.admin, 'DELETE', `/api/admin/logs/failed-jobs/${gone.id}`)).status).toBe(
        404,
      );

      const activity = await as(who.admin, 'GET', '/api/admin/logs/activity?search=failed-jobs');
      expect(
        activity.body.data.map((a: { route: string; status: number; target_id: string }) => [
          a.route,
          a.status,
          a.target_id,
        ]),
      ).toEqual([
        ['/api/admin/logs/failed-jobs/:id', 404, gone.id],
        ['/api/admin/logs/failed-jobs/:id', 204, gone.id],
        ['/api/admin/logs/failed-jobs/:id/retry', 404, job.id],
        ['/api/admin/logs/failed-jobs/:id/retry', 202, job.id],
      ]);
    });
  });

  describe('insights', () => {
    it('has no snapshot before the first compute, and computing needs commands.destructive', async () => {
      expect((await as(who.admin, 'GET', '/api/admin/insights')).body).toEqual({ data: null });
      expect((await as(undefined, 'POST', '/api/admin/insights/compute', {})).status).toBe(401);
      for (const denied of [who.viewer, who.editor, who.admin])
        expect((await as(denied, 'POST', '/api/admin/insights/compute', {})).status).toBe(403);
      const bad = await as(who.superAdmin, 'POST', '/api/admin/insights/compute', {
        from: '2026-02-01T00:00:00Z',
        to: '2026-01-01T00:00:00Z',
      });
      expect([bad.status, Object.keys(bad.body.errors)]).toEqual([422, ['from']]);
      const notDate = await as(who.superAdmin, 'POST', '/api/admin/insights/compute', {
        to: 'tomorrow',
      });
      expect([notDate.status, Object.keys(notDate.body.errors)]).toEqual([422, ['to']]);
    });

    it('computes and stores top questions, rates per project and day, citations and feedback', async () => {
      worker ??= await startWorker((await import('../src/worker.module')).WorkerModule);
      const ingest = await as(who.admin, 'POST', '/api/kb/ingest', {
        documents: [
          {
            project_key: 'platform',
            source_path: 'guides/signing-key-rotation.md',
            content: ROTATION,
          },
          { project_key: 'support', source_path: 'hours.md', content: HOURS },
        ],
      });
      expect(ingest.status).toBe(202);
      await waitFor(
        async () =>
          (await docStatus('guides/signing-key-rotation.md')) === 'indexed' &&
          (await docStatus('hours.md')) === 'indexed',
      );

      const ask = async (question: string) => {
        const r = await as(who.viewer, 'POST', '/api/kb/chat', { question });
        expect(r.status).toBe(200);
        return r.body;
      };
      const first = await ask('When is a new signing key published in the JWKS?');
      expect(first.refusal_reason).toBeNull();
      await ask('when is a new signing key  published in the JWKS?');
      expect((await ask('How long do access tokens live?')).refusal_reason).toBeNull();
      expect((await ask('What is the airspeed of an unladen swallow?')).refusal_reason).toBe(
        'no_relevant_context',
      );
      const chunkId = first.citations[0].chunks[0].chunk_id;
      expect(
        (
          await as(who.viewer, 'POST', '/api/kb/feedback', {
            chunk_id: chunkId,
            signal: 'should_have_cited',
          })
        ).status,
      ).toBeLessThan(300);
      expect(
        (
          await as(who.editor, 'POST', '/api/kb/feedback', {
            chunk_id: chunkId,
            signal: 'not_relevant',
          })
        ).status,
      ).toBeLessThan(300);
      expect(
        (
          await as(who.admin, 'POST', '/api/kb/feedback', {
            chunk_id: chunkId,
            signal: 'should_have_cited',
          })
        ).status,
      ).toBeLessThan(300);

      const computed = await as(who.superAdmin, 'POST', '/api/admin/insights/compute', {});
      expect(computed.status).toBe(201);
      const { data } = computed.body.data;
      expect(data.totals).toEqual({
        questions: 4,
        refused: 1,
        refusal_rate: 0.25,
        mean_confidence: expect.any(Number),
      });
      expect(data.top_questions[0]).toMatchObject({ asked: 2, refused: 0 });
      expect(data.top_questions[0].question.toLowerCase()).toContain('signing key');
      expect(data.per_project).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            project_key: 'platform',
            questions: 3,
            refused: 0,
            refusal_rate: 0,
          }),
          expect.objectContaining({
            project_key: '(all projects)',
            questions: 1,
            refused: 1,
            refusal_rate: 1,
            mean_confidence: null,
          }),
        ]),
      );
      expect(data.per_day).toEqual([
        expect.objectContaining({
          day: new Date().toISOString().slice(0, 10),
          questions: 4,
          refused: 1,
        }),
      ]);
      const [rotation] = await db.query(
        `SELECT id FROM kb_documents WHERE source_path = 'guides/signing-key-rotation.md'`,
      );
      expect(data.most_cited_documents[0]).toMatchObject({
        document_id: String(rotation.id),
        citations: 2,
        project_key: 'platform',
      });
      expect(
        data.never_cited_documents.sample.map((d: { source_path: string }) => d.source_path),
      ).toContain('hours.md');
      expect(
        data.never_cited_documents.sample.map((d: { source_path: string }) => d.source_path),
      ).not.toContain('guides/signing-key-rotation.md');
      expect(data.feedback).toEqual([
        expect.objectContaining({ document_id: String(rotation.id), helpful: 2, unhelpful: 1 }),
      ]);

      const latest = await as(who.admin, 'GET', '/api/admin/insights');
      expect(latest.body.data).toMatchObject({
        id: computed.body.data.id,
        computed_by: who.superAdmin.id,
        data: { totals: { questions: 4 } },
      });
      await as(who.superAdmin, 'POST', '/api/admin/insights/compute', {
        from: '2020-01-01T00:00:00Z',
        to: '2020-12-31T00:00:00Z',
      });
      const history = await as(who.admin, 'GET', '/api/admin/insights/history?per_page=1');
      expect(history.body).toMatchObject({
        total: 2,
        last_page: 2,
        data: [
          expect.objectContaining({
            totals: { questions: 0, refused: 0, refusal_rate: 0, mean_confidence: null },
          }),
        ],
      });
      expect(history.body.data[0].data).toBeUndefined();
      const future = new Date(Date.now() + 60_000).toISOString();
      expect(
        (await as(who.admin, 'GET', `/api/admin/insights/history?from=${future}`)).body.total,
      ).toBe(0);
      expect((await as(who.admin, 'GET', '/api/admin/insights/history?to=soon')).status).toBe(422);
      expect((await as(who.otherAdmin, 'GET', '/api/admin/insights')).body.data).toBeNull();
      expect((await as(who.otherAdmin, 'GET', '/api/admin/insights/history')).body.total).toBe(0);
    });
  });
});
