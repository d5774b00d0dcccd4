import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const root = join(__dirname, '../../..');
const DOCS = 60;

/** A document big enough that the worker is busy with several at any moment. */
const doc = (i: number) =>
  Array.from({ length: 40 }, (_, s) => `## Section ${s} of document ${i}\n\n` + `Paragraph about topic ${i}-${s} with some words repeated. `.repeat(60)).join('\n\n');

/**
 * A wait ends when every document is indexed or when none has been indexed for this long: a queue that stopped fails
 * the test, a machine that is merely slow does not.
 */
const STALL_MS = 30_000;

// The first worker runs as a real process so it can be killed without any chance to clean up.
jest.setTimeout(600_000);

describe('kb-api ingest survives a killed worker', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let child: ChildProcess | undefined;
  let worker: WorkerHandle | undefined;

  const indexedCount = async () => (await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`))[0].n as number;
  /** The indexed count once it reaches `target`, or once it has not grown for `stallMs`. */
  const indexedWhileProgressing = async (target: number, stallMs = STALL_MS) => {
    let count = await indexedCount();
    for (let grewAt = Date.now(); count < target && Date.now() - grewAt < stallMs; ) {
      await new Promise((r) => setTimeout(r, 20));
      const now = await indexedCount();
      if (now > count) grewAt = Date.now();
      count = now;
    }
    return count;
  };

  beforeAll(async () => {
    // A short lock, so that the killed worker's jobs are taken over within seconds; not so short that a busy event loop
    // on a loaded machine misses its renewals (at 1 s the surviving worker's own jobs kept stalling and restarting).
    ({ svc, db, stop } = await startKb({ KB_WORKER_LOCK_MS: '5000' }));
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await worker?.close();
    await stop?.();
  });

  it('indexes every accepted document exactly once after the worker is killed mid-batch and another starts', async () => {
    await createUser(db, { email: 'fault@example.com' });
    const c = new KbClient(svc.url);
    const token = (await c.call('POST', '/api/auth/token', { body: { email: 'fault@example.com', password: 'correct horse battery staple' } })).body.token;
    const accepted = await c.call('POST', '/api/kb/ingest', { token, body: { documents: Array.from({ length: DOCS }, (_, i) => ({ source_path: `bulk/doc-${i}.md`, content: doc(i) })) } });
    expect(accepted.body).toMatchObject({ queued: DOCS, failed: 0 });

    child = spawn(process.execPath, ['-r', join(root, 'tools/swc-register.cjs'), join(root, 'apps/kb-api/src/worker.ts')], {
      cwd: root,
      env: { ...process.env, WORKER_HEALTH_PORT: '0', LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    // The worker process compiles its sources as it boots: on a loaded machine that alone can take tens of seconds.
    await indexedWhileProgressing(3, 4 * STALL_MS);
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    const atKill = await indexedCount();
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(DOCS);

    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    expect(await indexedWhileProgressing(DOCS)).toBe(DOCS);

    // One current version per document, its chunks complete and not doubled.
    const rows = await db.query(
      `SELECT d.id, d.chunk_count, d.content_hash = d.pending_hash AS current, count(c.id)::int AS chunks, count(DISTINCT c.ord)::int AS distinct_ords
         FROM kb_documents d LEFT JOIN kb_chunks c ON c.document_id = d.id GROUP BY d.id`,
    );
    expect(rows).toHaveLength(DOCS);
    for (const r of rows) {
      expect(r.current).toBe(true);
      expect(r.chunks).toBe(r.chunk_count);
      expect(r.distinct_ords).toBe(r.chunks);
      expect(r.chunks).toBeGreaterThan(0);
    }
  });
});
