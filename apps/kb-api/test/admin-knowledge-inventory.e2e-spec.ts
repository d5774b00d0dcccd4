import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, startKbWithCallers } from './admin-support';
import { KbClient } from './kb-fixtures';

const ROTATION = `# Signing key rotation

Signing keys rotate through the states next, active, retiring and retired. See [[token-lifetimes]] and [[missing-runbook]].
`;
const LIFETIMES = `# Token lifetimes

Access tokens live fifteen minutes. Refresh tokens rotate on every use.
`;
const BACKUP = `# Database backup

Nightly backups run at two o'clock and are kept for thirty days.
`;

const DOCS = [
  { project_key: 'platform', source_path: 'guides/signing-key-rotation.md', content: ROTATION, metadata: { tags: ['security', 'iam'] } },
  { project_key: 'platform', source_path: 'guides/token-lifetimes.md', content: LIFETIMES, metadata: { tags: ['security'] } },
  { project_key: 'platform', source_path: 'ops/runbooks/backup.md', content: BACKUP, mime_type: 'text/markdown' },
  { project_key: 'support', source_path: 'backup-copy.md', content: BACKUP },
  { project_key: 'support', source_path: 'broken.md', content: 'x' },
];

describe('kb-api admin knowledge: metrics, tree, health, documents', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let viewer: Caller;
  let editor: Caller;
  let admin: Caller;
  let foreignAdmin: Caller;
  const ids: Record<string, number> = {};
  const as = (who: Caller | undefined, method: string, path: string, body?: unknown) => new KbClient(svc.url).call(method, path, { token: who?.token, body });

  const waitFor = async (sql: string, params: unknown[], want: (n: number) => boolean) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [{ n }] = await db.query(sql, params);
      if (want(n) || Date.now() > deadline) return n as number;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    let documentIds: Record<string, number>;
    ({ svc, db, stop, viewer, editor, admin, foreignAdmin, ids: documentIds } = await startKbWithCallers('know.test', { documents: DOCS }));
    Object.assign(ids, documentIds);
    expect(await waitFor(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`, [], (n) => n >= 5)).toBe(5);
    // States the worker cannot produce on demand: a stuck ingest, a failed one, a document left without chunks.
    await db.query(`UPDATE kb_documents SET status = 'failed', error = 'conversion failed' WHERE id = $1`, [ids['broken.md']]);
    await db.query(`DELETE FROM kb_chunks WHERE document_id = $1`, [ids['ops/runbooks/backup.md']]);
    await db.query(`UPDATE kb_documents SET indexed_at = now() - interval '400 days' WHERE id = $1`, [ids['guides/token-lifetimes.md']]);
    // Chat history: two chats today (one refused), one three days ago (refused), one ten days ago.
    await db.query(
      `INSERT INTO kb_chat_logs (tenant_id, question, answer, citations, confidence, refusal_reason, latency_ms, created_at) VALUES
         ('default', 'a', 'x', '[]', 80, NULL, 5, now() - interval '1 hour'),
         ('default', 'b', 'x', '[]', 0, 'no_relevant_context', 5, now() - interval '2 hours'),
         ('default', 'c', 'x', '[]', 0, 'no_relevant_context', 5, now() - interval '3 days'),
         ('default', 'd', 'x', '[]', 60, NULL, 5, now() - interval '10 days'),
         ('other', 'e', 'x', '[]', 0, 'no_relevant_context', 5, now())`,
    );
    await db.query(
      `INSERT INTO kb_chunk_feedback (tenant_id, user_id, chunk_id, document_id, chunk_hash, signal)
       SELECT 'default', $1, c.id, c.document_id, c.chunk_hash, 'not_relevant' FROM kb_chunks c WHERE c.document_id = $2 LIMIT 1`,
      [admin.id, ids['guides/signing-key-rotation.md']],
    );
  }, 60_000);

  afterAll(() => stop?.());

  it('gates every route G1: 401 for guests, 403 for viewers and editors, 200 for admins', async () => {
    const id = ids['guides/signing-key-rotation.md'];
    const routes: Array<[string, string]> = [
      ['GET', '/api/admin/metrics/overview'],
      ['GET', '/api/admin/metrics/health'],
      ['GET', '/api/admin/metrics/timeseries?metric=chats'],
      ['GET', '/api/admin/kb/tree'],
      ['GET', '/api/admin/kb/health'],
      ['GET', '/api/admin/kb/documents'],
      ['GET', `/api/admin/kb/documents/${id}`],
      ['POST', `/api/admin/kb/documents/${id}/reindex`],
    ];
    for (const [method, path] of routes) {
      expect([path, (await as(undefined, method, path)).status]).toEqual([path, 401]);
      for (const denied of [viewer, editor]) {
        const r = await as(denied, method, path);
        expect([path, r.status, r.body]).toEqual([path, 403, { message: 'This action is unauthorized.' }]);
      }
      expect([path, (await as(admin, method, path)).status]).toEqual([path, method === 'POST' ? 202 : 200]);
    }
  });

  it('counts the tenant’s documents, chunks, chats, refusals and feedback on the overview', async () => {
    const r = await as(admin, 'GET', '/api/admin/metrics/overview');
    expect(r.status).toBe(200);
    const [{ chunks }] = await db.query(`SELECT count(*)::int AS chunks FROM kb_chunks WHERE tenant_id = 'default'`);
    expect(r.body).toMatchObject({
      documents: 5,
      documents_by_status: { indexed: 4, failed: 1 },
      chunks,
      projects: 3, // default, platform, support
      users: 3,
      chats: {
        last_24h: { total: 2, refused: 1, refusal_rate: 0.5 },
        last_7d: { total: 3, refused: 2, refusal_rate: 0.6667 },
        mean_confidence_7d: 80,
      },
      feedback: { should_have_cited: 0, not_relevant: 1 },
    });
    expect(r.body.ingest_queue).toEqual(expect.objectContaining({ waiting: expect.any(Number), failed: expect.any(Number), depth: expect.any(Number), tenant_pending_documents: 0 }));
    const other = await as(foreignAdmin, 'GET', '/api/admin/metrics/overview');
    expect(other.body).toMatchObject({ documents: 0, chats: { last_24h: { total: 1, refused: 1 } } });
  });

  it('buckets the time series by UTC day and validates its query', async () => {
    const chats = await as(admin, 'GET', '/api/admin/metrics/timeseries?metric=chats&days=7');
    expect(chats.status).toBe(200);
    expect(chats.body.data).toHaveLength(7);
    expect(chats.body.data[6].date).toBe(new Date().toISOString().slice(0, 10));
    expect(chats.body.total).toBe(3);
    const refusals = await as(admin, 'GET', '/api/admin/metrics/timeseries?metric=refusals&days=30');
    expect([refusals.body.data.length, refusals.body.total]).toEqual([30, 2]);
    const ingested = await as(admin, 'GET', '/api/admin/metrics/timeseries?metric=ingested&days=1');
    expect(ingested.body.data).toEqual([{ date: new Date().toISOString().slice(0, 10), value: 4 }]);
    const bad = await as(admin, 'GET', '/api/admin/metrics/timeseries?metric=tokens&days=0');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['days', 'metric']);
  });

  it('reports database, redis, queue and worker health with latencies', async () => {
    const r = await as(admin, 'GET', '/api/admin/metrics/health');
    expect(r.body.checks.database).toMatchObject({ status: 'ok', latency_ms: expect.any(Number) });
    expect(r.body.checks.redis.status).toBe('ok');
    expect(r.body.checks.queue).toMatchObject({ status: 'ok', waiting: expect.any(Number) });
    expect(r.body.checks.worker).toMatchObject({ status: 'ok', workers: 1 });
    expect(r.body.status).toBe('ok');
  });

  it('builds the tree of projects, folders and documents with counts, filtered by project', async () => {
    const all = await as(admin, 'GET', '/api/admin/kb/tree');
    expect(all.body.data.map((p: { project_key: string; document_count: number }) => [p.project_key, p.document_count])).toEqual([
      ['default', 0],
      ['platform', 3],
      ['support', 2],
    ]);
    const platform = await as(admin, 'GET', '/api/admin/kb/tree?project=platform');
    expect(platform.body.data).toHaveLength(1);
    const [guides, ops] = platform.body.data[0].folders;
    expect([guides.path, guides.document_count, guides.documents.map((d: { title: string }) => d.title)]).toEqual(['guides', 2, ['Signing key rotation', 'Token lifetimes']]);
    expect([ops.path, ops.document_count, ops.documents, ops.folders[0].path, ops.folders[0].documents[0].title]).toEqual(['ops', 1, [], 'ops/runbooks', 'Database backup']);
    expect((await as(admin, 'GET', '/api/admin/kb/tree?project=nope')).status).toBe(404);
    expect((await as(foreignAdmin, 'GET', '/api/admin/kb/tree')).body.data.every((p: { document_count: number }) => p.document_count === 0)).toBe(true);
  });

  it('finds documents without chunks, failed and stuck ingests, duplicates, broken links and stale documents', async () => {
    await db.query(`UPDATE kb_documents SET status = 'pending', updated_at = now() - interval '2 hours' WHERE id = $1`, [ids['backup-copy.md']]);
    const r = await as(admin, 'GET', '/api/admin/kb/health');
    expect(r.status).toBe(200);
    const f = r.body.findings;
    expect(r.body.status).toBe('attention');
    expect([f.without_chunks.count, f.without_chunks.samples[0].source_path]).toEqual([1, 'ops/runbooks/backup.md']);
    expect([f.failed_ingests.count, f.failed_ingests.samples[0].error]).toEqual([1, 'conversion failed']);
    expect([f.stuck_ingests.count, f.stuck_ingests.samples[0].source_path]).toEqual([1, 'backup-copy.md']);
    expect(f.duplicate_content.count).toBe(1);
    expect(f.duplicate_content.samples[0].documents.map((d: { source_path: string }) => d.source_path).sort()).toEqual(['backup-copy.md', 'ops/runbooks/backup.md']);
    expect(f.broken_links).toEqual({ count: 1, samples: [{ document_id: ids['guides/signing-key-rotation.md'], project_key: 'platform', source_path: 'guides/signing-key-rotation.md', target_slug: 'missing-runbook' }] });
    expect([f.stale_documents.count, f.stale_documents.samples[0].source_path]).toEqual([1, 'guides/token-lifetimes.md']);
    const tighter = await as(admin, 'GET', '/api/admin/kb/health?stale_days=100000');
    expect(tighter.status).toBe(422);
    expect(tighter.body.errors).toHaveProperty('stale_days');
    await db.query(`UPDATE kb_documents SET status = 'indexed', updated_at = now() WHERE id = $1`, [ids['backup-copy.md']]);
  });

  it('lists documents across projects with filters and paging, tenant scoped', async () => {
    const page = await as(admin, 'GET', '/api/admin/kb/documents?per_page=2&page=2');
    expect(page.body).toMatchObject({ current_page: 2, per_page: 2, total: 5, last_page: 3 });
    expect(page.body.data.map((d: { source_path: string }) => d.source_path)).toEqual(['ops/runbooks/backup.md', 'backup-copy.md']);
    const tagged = await as(admin, 'GET', '/api/admin/kb/documents?tag=iam');
    expect(tagged.body.data.map((d: { title: string; tags: string[] }) => [d.title, d.tags])).toEqual([['Signing key rotation', ['security', 'iam']]]);
    const failed = await as(admin, 'GET', '/api/admin/kb/documents?status=failed&project=support');
    expect(failed.body.data.map((d: { source_path: string }) => d.source_path)).toEqual(['broken.md']);
    const searched = await as(admin, 'GET', '/api/admin/kb/documents?search=LIFETIMES');
    expect(searched.body.total).toBe(1);
    expect(searched.body.data[0].evidence).toEqual({ rank: 50, label: null, matched_by: 'default' });
    const bad = await as(admin, 'GET', '/api/admin/kb/documents?status=gone&per_page=500');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['per_page', 'status']);
    expect((await as(foreignAdmin, 'GET', '/api/admin/kb/documents')).body.total).toBe(0);
  });

  it('shows one document with its chunks and resolved, broken and incoming links; 404 elsewhere', async () => {
    const r = await as(admin, 'GET', `/api/admin/kb/documents/${ids['guides/signing-key-rotation.md']}`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ title: 'Signing key rotation', project_key: 'platform', status: 'indexed', chunks_truncated: false });
    expect(r.body.data.chunks[0]).toMatchObject({ ord: 0, heading_path: 'Signing key rotation' });
    expect(r.body.data.links.outgoing).toEqual([
      { target_slug: 'missing-runbook', document_id: null, title: null, project_key: null, resolved: false },
      { target_slug: 'token-lifetimes', document_id: ids['guides/token-lifetimes.md'], title: 'Token lifetimes', project_key: 'platform', resolved: true },
    ]);
    const target = await as(admin, 'GET', `/api/admin/kb/documents/${ids['guides/token-lifetimes.md']}`);
    expect(target.body.data.links.incoming.map((d: { document_id: number }) => d.document_id)).toEqual([ids['guides/signing-key-rotation.md']]);
    for (const path of [`/api/admin/kb/documents/999999`, '/api/admin/kb/documents/abc']) expect((await as(admin, 'GET', path)).status).toBe(404);
    const foreign = await as(foreignAdmin, 'GET', `/api/admin/kb/documents/${ids['guides/signing-key-rotation.md']}`);
    expect([foreign.status, foreign.body.error]).toEqual([404, 'not_found']);
    expect((await as(foreignAdmin, 'POST', `/api/admin/kb/documents/${ids['guides/signing-key-rotation.md']}/reindex`)).status).toBe(404);
  });

  it('reindexes a document through the ingest job: its chunks come back', async () => {
    const id = ids['ops/runbooks/backup.md'];
    expect((await db.query('SELECT count(*)::int AS n FROM kb_chunks WHERE document_id = $1', [id]))[0].n).toBe(0);
    const r = await as(admin, 'POST', `/api/admin/kb/documents/${id}/reindex`);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ document_id: id, status: 'queued', version_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(await waitFor('SELECT count(*)::int AS n FROM kb_chunks WHERE document_id = $1', [id], (n) => n > 0)).toBe(1);
    const [doc] = await db.query('SELECT status, content_hash FROM kb_documents WHERE id = $1', [id]);
    expect(doc).toEqual({ status: 'indexed', content_hash: r.body.version_hash });
  });
});
