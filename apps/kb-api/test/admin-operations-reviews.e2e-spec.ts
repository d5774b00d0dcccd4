import { randomUUID } from 'node:crypto';
import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const SUPPLIER_A = `# Supplier Alpha agreement

## Termination

Either party may terminate the agreement with ninety days written notice.

## Liability

Liability under this agreement is capped at twelve months of fees.
`;

const SUPPLIER_B = `# Supplier Beta agreement

## Termination

The customer may terminate the agreement with thirty days written notice after the first year.

## Governing law

This agreement is governed by the laws of Ireland.
`;

describe('kb-api admin: tabular reviews and workflows', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let nobody: Caller;
  let viewer: Caller;
  let editor: Caller;
  let admin: Caller;
  let docA: number;
  let docB: number;
  const as = (who: Caller | undefined, method: string, p: string, body?: unknown) => new KbClient(svc.url).call(method, p, { token: who?.token, body });
  const csvAs = (who: Caller, id: string) => fetch(`${svc.url}/api/admin/tabular-reviews/${id}/export.csv`, { headers: { authorization: `Bearer ${who.token}` } });

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    nobody = await callerWith(svc.url, db, { email: 'nobody@rev.test', roles: [] });
    viewer = await callerWith(svc.url, db, { email: 'viewer@rev.test', roles: ['viewer'] });
    editor = await callerWith(svc.url, db, { email: 'editor@rev.test', roles: ['editor'] });
    admin = await callerWith(svc.url, db, { email: 'admin@rev.test', roles: ['admin'] });
    const ingested = await as(admin, 'POST', '/api/kb/ingest', {
      documents: [
        { project_key: 'contracts', source_path: 'alpha.md', content: SUPPLIER_A },
        { project_key: 'contracts', source_path: 'beta.md', content: SUPPLIER_B },
        { project_key: 'other', source_path: 'unrelated.md', content: '# Lunch menu\n\nSoup of the day is served from noon until two.\n' },
      ],
    });
    [docA, docB] = ingested.body.documents.map((d: { document_id: number }) => d.document_id);
    const deadline = Date.now() + 15_000;
    while ((await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE status = 'indexed'`))[0].n < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await stop();
  });

  describe('tabular reviews', () => {
    let reviewId: string;

    it('lets viewers read, but only G1 create, run and delete; guests get 401 and users without a role 403', async () => {
      const body = { name: 'Gate', project_key: 'contracts', columns: [{ question: 'What notice period applies to termination?' }] };
      expect((await as(undefined, 'GET', '/api/admin/tabular-reviews')).status).toBe(401);
      expect((await as(nobody, 'GET', '/api/admin/tabular-reviews')).status).toBe(403);
      expect((await as(editor, 'GET', '/api/admin/tabular-reviews')).status).toBe(403);
      expect((await as(viewer, 'GET', '/api/admin/tabular-reviews')).status).toBe(200);
      expect((await as(viewer, 'POST', '/api/admin/tabular-reviews', body)).status).toBe(403);
      const created = await as(admin, 'POST', '/api/admin/tabular-reviews', body);
      expect(created.status).toBe(201);
      const id = created.body.data.id;
      expect((await as(viewer, 'POST', `/api/admin/tabular-reviews/${id}/run`)).status).toBe(403);
      expect((await as(viewer, 'DELETE', `/api/admin/tabular-reviews/${id}`)).status).toBe(403);
      expect((await as(viewer, 'GET', `/api/admin/tabular-reviews/${id}`)).status).toBe(200);
      expect((await csvAs(viewer, id)).status).toBe(200);
      expect((await csvAs(nobody, id)).status).toBe(403);
      expect((await as(undefined, 'GET', `/api/admin/tabular-reviews/${id}`)).status).toBe(401);
      expect((await as(admin, 'DELETE', `/api/admin/tabular-reviews/${id}`)).status).toBe(204);
      expect((await as(viewer, 'GET', `/api/admin/tabular-reviews/${id}`)).status).toBe(404);
    });

    it('validates documents and columns by field', async () => {
      const cases: Array<[unknown, string]> = [
        [{ name: 'x', columns: [{ question: 'What applies?' }] }, 'document_ids'],
        [{ name: 'x', document_ids: [docA], project_key: 'contracts', columns: [{ question: 'What applies?' }] }, 'document_ids'],
        [{ name: 'x', document_ids: [docA, 999999], columns: [{ question: 'What applies?' }] }, 'document_ids.1'],
        [{ name: 'x', project_key: 'nothing-here', columns: [{ question: 'What applies?' }] }, 'project_key'],
        [{ name: 'x', document_ids: [docA], columns: [] }, 'columns'],
        [{ name: 'x', document_ids: [docA], columns: [{ question: '' }] }, 'columns.0.question'],
        [{ document_ids: [docA], columns: [{ question: 'What applies?' }] }, 'name'],
      ];
      for (const [body, field] of cases) {
        const r = await as(admin, 'POST', '/api/admin/tabular-reviews', body);
        expect([field, r.status, Object.keys(r.body.errors ?? {})]).toEqual([field, 422, expect.arrayContaining([field])]);
      }
      // null is not absent (not "the other way of choosing documents", not "label = question"): refused by name, nothing made.
      const before = (await db.query(`SELECT count(*)::int AS n FROM kb_tabular_reviews`))[0].n;
      const nulls: Array<[unknown, string]> = [
        [{ name: 'x', document_ids: null, project_key: 'contracts', columns: [{ question: 'What applies?' }] }, 'document_ids'],
        [{ name: 'x', document_ids: [docA], project_key: null, columns: [{ question: 'What applies?' }] }, 'project_key'],
        [{ name: 'x', document_ids: [docA], columns: [{ question: 'What applies?', label: null }] }, 'columns.0.label'],
      ];
      for (const [body, field] of nulls) {
        const r = await as(admin, 'POST', '/api/admin/tabular-reviews', body);
        expect([field, r.status, Object.keys(r.body.errors ?? {})]).toEqual([field, 422, [field]]);
      }
      expect((await db.query(`SELECT count(*)::int AS n FROM kb_tabular_reviews`))[0].n).toBe(before);
    });

    it('fills each cell from its own document with a citation, and leaves a cell empty when the document does not say', async () => {
      const created = await as(admin, 'POST', '/api/admin/tabular-reviews', {
        name: 'Supplier terms',
        document_ids: [docA, docB],
        columns: [
          { label: 'Termination notice', question: 'How many days written notice to terminate the agreement?' },
          { label: 'Governing law', question: 'Which laws govern the agreement?' },
        ],
      });
      reviewId = created.body.data.id;
      expect(created.body.data).toMatchObject({ name: 'Supplier terms', status: 'draft', document_count: 2, column_count: 2, last_run_at: null });
      expect(created.body.data.rows[0].cells).toEqual([null, null]);

      const run = await as(admin, 'POST', `/api/admin/tabular-reviews/${reviewId}/run`);
      expect(run.status).toBe(200);
      const grid = run.body.data;
      expect(grid.status).toBe('completed');
      expect(grid.rows.map((r: { document: { source_path: string } }) => r.document.source_path)).toEqual(['alpha.md', 'beta.md']);
      const [alpha, beta] = grid.rows;
      expect(alpha.cells[0]).toMatchObject({ status: 'answered', citation: { document_id: docA, source_path: 'alpha.md', heading_path: expect.stringContaining('Termination') } });
      expect(alpha.cells[0].answer).toContain('ninety days');
      expect(beta.cells[0].answer).toContain('thirty days');
      expect(beta.cells[0].citation.document_id).toBe(docB);
      expect(beta.cells[1]).toMatchObject({ status: 'answered', citation: { source_path: 'beta.md' } });
      expect(beta.cells[1].answer).toContain('Ireland');
      expect(alpha.cells[1]).toMatchObject({ status: 'no_answer', answer: null, citation: null });
      const [chunk] = await db.query('SELECT text FROM kb_chunks WHERE id = $1', [alpha.cells[0].citation.chunk_id]);
      expect(chunk.text).toContain('ninety days');
    });

    it('exports the grid as CSV and lists reviews', async () => {
      const r = await csvAs(viewer, reviewId);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('text/csv');
      expect(r.headers.get('content-disposition')).toBe(`attachment; filename="tabular-review-${reviewId}.csv"`);
      const lines = (await r.text()).trim().split('\r\n');
      expect(lines[0]).toBe('document_id,title,source_path,Termination notice,Termination notice (citation),Governing law,Governing law (citation)');
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain('ninety days');
      expect(lines[1]).toContain('alpha.md > ');
      const list = await as(viewer, 'GET', '/api/admin/tabular-reviews?search=supplier');
      expect(list.body).toMatchObject({ total: 1, data: [{ id: reviewId, name: 'Supplier terms', document_count: 2, column_count: 2, status: 'completed' }] });
      const foreign = await callerWith(svc.url, db, { email: 'viewer@elsewhere.test', tenant: 'elsewhere', roles: ['viewer'] });
      expect((await as(foreign, 'GET', `/api/admin/tabular-reviews/${reviewId}`)).status).toBe(404);
    });
  });

  describe('workflows', () => {
    let approvalId: string;
    let commandRunId: string;
    let syncRunId: string;

    beforeAll(async () => {
      approvalId = randomUUID();
      await db.query(
        `INSERT INTO kb_promotion_approvals (id, tenant_id, flow_run_id, status, token_hash, expires_at, project_key, source_path, slug, canonical_type, title, requested_by, decided_by, decided_at, document_id, created_at)
         VALUES ($1, 'default', $2, 'approved', 'h', now() + interval '1 day', 'contracts', 'alpha.md', 'alpha', 'policy', 'Alpha policy', $3, $3, now() - interval '1 minute', $4, now() - interval '2 minutes')`,
        [approvalId, randomUUID(), admin.id, docA],
      );
      await db.query(
        `INSERT INTO kb_promotion_audit (tenant_id, approval_id, action, actor_user_id, created_at) VALUES ('default', $1, 'requested', $2, now() - interval '2 minutes'), ('default', $1, 'approved', $2, now() - interval '1 minute')`,
        [approvalId, admin.id],
      );
      const [connector] = await db.query(`INSERT INTO kb_connectors (tenant_id, name, kind, project_key, config) VALUES ('default', 'Wiki', 'web', 'contracts', '{"urls":["https://example.org/"]}') RETURNING id`);
      const [run] = await db.query(
        `INSERT INTO kb_connector_runs (tenant_id, connector_id, status, seen, queued, document_ids, triggered_by, finished_at) VALUES ('default', $1, 'succeeded', 2, 2, $2::bigint[], $3, now()) RETURNING id`,
        [connector.id, [docA, docB], admin.id],
      );
      syncRunId = run.id;
      commandRunId = (await as(admin, 'POST', '/api/admin/commands/run', { command: 'prune-expired-auth' })).body.data.id;
    });

    it('answers 401 to guests, 403 to a user without a role, 200 to viewers', async () => {
      for (const p of ['/api/admin/workflows', `/api/admin/workflows/command_run/${commandRunId}`]) {
        expect([p, (await as(undefined, 'GET', p)).status]).toEqual([p, 401]);
        expect([p, (await as(nobody, 'GET', p)).status]).toEqual([p, 403]);
        expect([p, (await as(viewer, 'GET', p)).status]).toEqual([p, 200]);
      }
    });

    it('lists promotion, ingest, connector sync and command runs, newest first, with filters', async () => {
      const all = await as(viewer, 'GET', '/api/admin/workflows?per_page=100');
      const kinds = new Set(all.body.data.map((w: { kind: string }) => w.kind));
      expect([...kinds].sort()).toEqual(['command_run', 'connector_sync', 'ingest', 'promotion']);
      expect(all.body.total).toBe(all.body.data.length);
      const starts = all.body.data.map((w: { started_at: string }) => new Date(w.started_at).getTime());
      expect(starts).toEqual([...starts].sort((a, b) => b - a));

      const ingests = await as(viewer, 'GET', '/api/admin/workflows?kind=ingest&status=indexed');
      expect(ingests.body.data.map((w: { title: string }) => w.title).sort()).toEqual(['contracts/alpha.md', 'contracts/beta.md', 'other/unrelated.md']);
      const promotions = await as(viewer, 'GET', '/api/admin/workflows?kind=promotion');
      expect(promotions.body.data).toEqual([expect.objectContaining({ kind: 'promotion', id: approvalId, status: 'approved', title: 'Alpha policy', actor: { id: admin.id, name: expect.any(String) } })]);
      const future = new Date(Date.now() + 3600_000).toISOString();
      expect((await as(viewer, 'GET', `/api/admin/workflows?from=${encodeURIComponent(future)}`)).body.total).toBe(0);
      expect((await as(viewer, 'GET', `/api/admin/workflows?to=${encodeURIComponent(future)}&kind=command_run`)).body.total).toBe(1);
      const bad = await as(viewer, 'GET', '/api/admin/workflows?kind=cron&from=yesterday');
      expect([bad.status, Object.keys(bad.body.errors).sort()]).toEqual([422, ['from', 'kind']]);
    });

    it('shows each flow with its steps and timestamps; unknown or foreign ids are 404', async () => {
      const promotion = (await as(viewer, 'GET', `/api/admin/workflows/promotion/${approvalId}`)).body.data;
      expect(promotion.steps.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
        ['requested', 'done'],
        ['approved', 'done'],
        ['indexed', 'done'],
      ]);
      expect(promotion.steps[2].detail.document_id).toBe(docA);

      const ingest = (await as(viewer, 'GET', `/api/admin/workflows/ingest/${docB}`)).body.data;
      expect(ingest).toMatchObject({ kind: 'ingest', status: 'indexed', title: 'contracts/beta.md' });
      expect(ingest.steps.at(-1)).toMatchObject({ name: 'indexed', status: 'done', detail: { chunks: expect.any(Number) } });
      expect(ingest.finished_at).not.toBeNull();

      const sync = (await as(viewer, 'GET', `/api/admin/workflows/connector_sync/${syncRunId}`)).body.data;
      expect(sync.steps.at(-1)).toMatchObject({ name: 'indexed', status: 'done', detail: { indexed: 2, pending: 0 } });

      const command = (await as(viewer, 'GET', `/api/admin/workflows/command_run/${commandRunId}`)).body.data;
      expect(command).toMatchObject({ kind: 'command_run', status: 'succeeded', title: 'prune-expired-auth', actor: { id: admin.id } });
      expect(command.steps.map((s: { name: string }) => s.name)).toEqual(['started', 'executed']);

      for (const p of ['/api/admin/workflows/promotion/not-a-uuid', `/api/admin/workflows/promotion/${randomUUID()}`, '/api/admin/workflows/cron/1', '/api/admin/workflows/ingest/999999']) {
        expect([p, (await as(viewer, 'GET', p)).status]).toEqual([p, 404]);
      }
      const foreign = await callerWith(svc.url, db, { email: 'viewer2@elsewhere.test', tenant: 'elsewhere', roles: ['viewer'] });
      expect((await as(foreign, 'GET', `/api/admin/workflows/command_run/${commandRunId}`)).status).toBe(404);
      expect((await as(foreign, 'GET', '/api/admin/workflows')).body.total).toBe(0);
    });
  });
});
