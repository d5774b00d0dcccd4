import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startWorker, WorkerHandle } from '@platform/runtime';
import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const HANDBOOK = `# Onboarding handbook

New engineers receive a hardware token on their first day and enrol it before requesting production access.
`;

const PAGE = `<html><head><title>Escalation policy</title></head><body>
<h1>Escalation policy</h1><p>Incidents of severity one page the on-call engineer within five minutes.</p>
<script>alert(1)</script></body></html>`;

describe('kb-api admin: connectors', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let worker: WorkerHandle;
  let web: Server;
  let webBase: string;
  let editor: Caller;
  let admin: Caller;
  const root = mkdtempSync(path.join(tmpdir(), 'kb-connector-root-'));
  const docs = path.join(root, 'handbook');
  const outside = mkdtempSync(path.join(tmpdir(), 'kb-connector-outside-'));
  const as = (who: Caller | undefined, method: string, p: string, body?: unknown) => new KbClient(svc.url).call(method, p, { token: who?.token, body });

  const waitIndexed = async (project: string, count: number) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM kb_documents WHERE project_key = $1 AND status = 'indexed' AND content_hash IS NOT NULL`, [project]);
      if (n >= count || Date.now() > deadline) return n;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  beforeAll(async () => {
    mkdirSync(path.join(docs, 'guides'), { recursive: true });
    writeFileSync(path.join(docs, 'onboarding.md'), HANDBOOK);
    writeFileSync(path.join(docs, 'guides', 'vpn.txt'), 'The VPN client reconnects automatically after a network change.\n');
    writeFileSync(path.join(docs, 'guides', 'ignored.bin'), 'not a document type');
    writeFileSync(path.join(docs, '.hidden.md'), '# hidden');
    writeFileSync(path.join(docs, 'empty.md'), '');

    web = createServer((req, res) => {
      if (req.url === '/escalation') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      else if (req.url === '/moved') res.writeHead(302, { location: '/notes.md' }).end();
      else if (req.url === '/notes.md') res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Release notes\n\nVersion two removes the legacy export endpoint.\n');
      else if (req.url === '/huge') res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(3 * 1024 * 1024, 'a'));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webBase = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;

    ({ svc, db, stop } = await startKb({ KB_CONNECTOR_FS_ROOTS: root, KB_CONNECTOR_WEB_ALLOWED_PRIVATE: '127.0.0.1' }));
    worker = await startWorker((await import('../src/worker.module')).WorkerModule);
    editor = await callerWith(svc.url, db, { email: 'editor@conn.test', roles: ['editor'] });
    admin = await callerWith(svc.url, db, { email: 'admin@conn.test', roles: ['admin'] });
  }, 60_000);

  afterAll(async () => {
    await worker?.close();
    await stop();
    await new Promise((r) => web.close(r));
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('answers 401 to guests and 403 to editors on every route', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/connectors'],
      ['POST', '/api/admin/connectors', { name: 'x', kind: 'web', config: { urls: ['https://example.org/'] } }],
      ['GET', '/api/admin/connectors/1'],
      ['PATCH', '/api/admin/connectors/1', { enabled: false }],
      ['DELETE', '/api/admin/connectors/1'],
      ['POST', '/api/admin/connectors/1/sync'],
      ['GET', '/api/admin/connectors/1/runs'],
    ];
    for (const [method, p, body] of routes) {
      expect([p, (await as(undefined, method, p, body)).status]).toEqual([p, 401]);
      expect([p, (await as(editor, method, p, body)).status]).toEqual([p, 403]);
    }
    expect((await as(admin, 'GET', '/api/admin/connectors')).status).toBe(200);
  });

  it('validates the config by kind: roots for directories, public or allowed addresses for URLs', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: 'a', kind: 'filesystem', config: { path: outside } }, 'config.path'],
      [{ name: 'a', kind: 'filesystem', config: { path: 'relative/dir' } }, 'config.path'],
      [{ name: 'a', kind: 'filesystem', config: { path: path.join(root, '..', path.basename(outside)) } }, 'config.path'],
      [{ name: 'a', kind: 'web', config: { urls: ['http://10.1.2.3/wiki'] } }, 'config.urls.0'],
      [{ name: 'a', kind: 'web', config: { urls: ['https://example.org/', 'http://169.254.169.254/latest/meta-data'] } }, 'config.urls.1'],
      [{ name: 'a', kind: 'web', config: { urls: ['ftp://example.org/x'] } }, 'config.urls.0'],
      [{ name: 'a', kind: 'web', config: { urls: [] } }, 'config.urls'],
      [{ name: 'a', kind: 'web', config: { urls: ['https://example.org/'], depth: 3 } }, 'config.depth'],
      [{ name: 'a', kind: 'ftp', config: {} }, 'kind'],
      [{ kind: 'web', config: { urls: ['https://example.org/'] } }, 'name'],
    ];
    for (const [body, field] of cases) {
      const r = await as(admin, 'POST', '/api/admin/connectors', body);
      expect([field, r.status, Object.keys(r.body.errors ?? {})]).toEqual([field, 422, expect.arrayContaining([field])]);
    }
    // null is not "the default project" nor "enabled": refused by name, nothing made.
    const nulls = await as(admin, 'POST', '/api/admin/connectors', { name: 'Nulls', kind: 'filesystem', project_key: null, enabled: null, config: { path: docs } });
    expect([nulls.status, Object.keys(nulls.body.errors).sort()]).toEqual([422, ['enabled', 'project_key']]);
    expect(await db.query(`SELECT id FROM kb_connectors WHERE name = 'Nulls'`)).toEqual([]);
  });

  it('syncs a directory into the ingest pipeline, then skips unchanged files and picks up changes', async () => {
    const created = await as(admin, 'POST', '/api/admin/connectors', { name: 'Handbook', kind: 'filesystem', project_key: 'handbook', config: { path: docs } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Handbook', kind: 'filesystem', project_key: 'handbook', enabled: true, last_run: null });
    const id = created.body.data.id;
    expect((await as(admin, 'POST', '/api/admin/connectors', { name: 'handbook', kind: 'filesystem', config: { path: docs } })).body.errors.name).toBeDefined();

    const first = await as(admin, 'POST', `/api/admin/connectors/${id}/sync`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'partial', seen: 3, queued: 2, skipped_unchanged: 0, failed: 1, errors: [{ source_path: 'empty.md', error: 'empty file' }] });
    expect(await waitIndexed('handbook', 2)).toBe(2);
    const rows = await db.query(`SELECT source_path, source_type, metadata->>'connector_type' AS ct FROM kb_documents WHERE project_key = 'handbook' ORDER BY source_path`);
    expect(rows).toEqual([
      { source_path: 'guides/vpn.txt', source_type: 'text', ct: 'filesystem' },
      { source_path: 'onboarding.md', source_type: 'markdown', ct: 'filesystem' },
    ]);
    const search = await as(admin, 'POST', '/api/kb/chat', { question: 'When do new engineers enrol the hardware token?' });
    expect(search.body.citations?.[0]?.source_path ?? JSON.stringify(search.body)).toBe('onboarding.md');

    const second = await as(admin, 'POST', `/api/admin/connectors/${id}/sync`);
    expect(second.body.data).toMatchObject({ seen: 3, queued: 0, skipped_unchanged: 2, failed: 1 });

    writeFileSync(path.join(docs, 'guides', 'vpn.txt'), 'The VPN client now needs a restart after a network change.\n');
    const third = await as(admin, 'POST', `/api/admin/connectors/${id}/sync`);
    expect(third.body.data).toMatchObject({ queued: 1, skipped_unchanged: 1 });

    const runs = await as(admin, 'GET', `/api/admin/connectors/${id}/runs?per_page=2`);
    expect(runs.body).toMatchObject({ total: 3, per_page: 2, last_page: 2 });
    expect(runs.body.data.map((r: { id: string }) => r.id)).toEqual([third.body.data.id, second.body.data.id]);
    const shown = await as(admin, 'GET', `/api/admin/connectors/${id}`);
    expect(shown.body.data.last_run.id).toBe(third.body.data.id);
    expect(shown.body.data.last_synced_at).not.toBeNull();
  });

  it('fetches web pages from an allowed private address, converting HTML, with size caps and redirects', async () => {
    const created = await as(admin, 'POST', '/api/admin/connectors', {
      name: 'Intranet',
      kind: 'web',
      project_key: 'intranet',
      config: { urls: [`${webBase}/escalation`, `${webBase}/moved`, `${webBase}/huge`, `${webBase}/missing`] },
    });
    expect(created.status).toBe(201);
    const run = await as(admin, 'POST', `/api/admin/connectors/${created.body.data.id}/sync`);
    expect(run.body.data).toMatchObject({ status: 'partial', seen: 4, queued: 2, failed: 2 });
    expect(run.body.data.errors.map((e: { error: string }) => e.error)).toEqual([expect.stringContaining('larger than'), expect.stringContaining('HTTP 404')]);
    expect(await waitIndexed('intranet', 2)).toBe(2);
    const [page] = await db.query(`SELECT d.title, d.source_type, d.metadata->>'origin' AS origin, c.text FROM kb_documents d JOIN kb_chunks c ON c.document_id = d.id WHERE d.source_path LIKE '%/escalation'`);
    expect(page).toMatchObject({ title: 'Escalation policy', source_type: 'html', origin: `${webBase}/escalation` });
    expect(page.text).toContain('severity one page the on-call engineer');
    expect(page.text).not.toContain('alert(1)');
    const [notes] = await db.query(`SELECT d.metadata->>'origin' AS origin FROM kb_documents d WHERE d.source_path LIKE '%/moved'`);
    expect(notes.origin).toBe(`${webBase}/notes.md`);
  });

  it('lets one of eight concurrent creations of the same name win; the others are told it is taken (422) or lost the race (409), never 500', async () => {
    const body = { name: 'Raced', kind: 'web', config: { urls: ['https://example.org/'] } };
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => as(admin, 'POST', '/api/admin/connectors', body)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 409 || s === 422)).toBe(true);
  });

  it('disables, renames and deletes connectors; another tenant or an unknown id is a 404', async () => {
    const created = await as(admin, 'POST', '/api/admin/connectors', { name: 'Temp', kind: 'web', config: { urls: ['https://example.org/'] } });
    const id = created.body.data.id;
    const patched = await as(admin, 'PATCH', `/api/admin/connectors/${id}`, { name: 'Temporary', enabled: false });
    expect(patched.body.data).toMatchObject({ name: 'Temporary', enabled: false });
    const refused = await as(admin, 'POST', `/api/admin/connectors/${id}/sync`);
    expect([refused.status, refused.body.error]).toEqual([409, 'connector_disabled']);
    expect((await as(admin, 'PATCH', `/api/admin/connectors/${id}`, { config: { urls: ['http://192.168.0.1/'] } })).body.errors['config.urls.0']).toBeDefined();
    const list = await as(admin, 'GET', '/api/admin/connectors?kind=web&search=temp');
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Temporary']);

    const foreign = await callerWith(svc.url, db, { email: 'admin@elsewhere.test', tenant: 'elsewhere', roles: ['admin'] });
    expect((await as(foreign, 'GET', `/api/admin/connectors/${id}`)).status).toBe(404);
    expect((await as(foreign, 'DELETE', `/api/admin/connectors/${id}`)).status).toBe(404);
    expect((await as(admin, 'GET', '/api/admin/connectors/abc')).status).toBe(404);
    expect((await as(admin, 'DELETE', `/api/admin/connectors/${id}`)).status).toBe(204);
    expect((await as(admin, 'GET', `/api/admin/connectors/${id}`)).status).toBe(404);
  });

  it('refuses null for any field of a PATCH (null is not absent) with 422 naming it, and changes nothing', async () => {
    const created = await as(admin, 'POST', '/api/admin/connectors', { name: 'Nullable', kind: 'web', config: { urls: ['https://example.org/'] } });
    const id = created.body.data.id;
    for (const field of ['config', 'name', 'project_key', 'enabled']) {
      const r = await as(admin, 'PATCH', `/api/admin/connectors/${id}`, { [field]: null });
      expect([field, r.status, Object.keys(r.body.errors ?? {})]).toEqual([field, 422, [field]]);
    }
    const all = await as(admin, 'PATCH', `/api/admin/connectors/${id}`, { config: null, name: null, project_key: null, enabled: null });
    expect(all.status).toBe(422);
    expect(Object.keys(all.body.errors).sort()).toEqual(['config', 'enabled', 'name', 'project_key']);
    const after = await as(admin, 'GET', `/api/admin/connectors/${id}`);
    expect(after.body.data).toMatchObject({ name: 'Nullable', enabled: true, config: { urls: ['https://example.org/'] } });
    expect((await as(admin, 'DELETE', `/api/admin/connectors/${id}`)).status).toBe(204);
  });

  it('reindex-project re-dispatches every document of the project through the worker', async () => {
    const before = await db.query(`SELECT id, indexed_at FROM kb_documents WHERE project_key = 'handbook' ORDER BY id`);
    const preview = await as(admin, 'POST', '/api/admin/commands/preview', { command: 'reindex-project', params: { project_key: 'handbook' } });
    expect(preview.body.data.would_change).toEqual({ ingest_jobs: 2 });
    const run = await as(admin, 'POST', '/api/admin/commands/run', { command: 'reindex-project', params: { project_key: 'handbook' } });
    expect(run.body.data).toMatchObject({ status: 'succeeded', result: { ingest_jobs: 2 } });
    expect(await waitIndexed('handbook', 2)).toBe(2);
    const after = await db.query(`SELECT id, indexed_at FROM kb_documents WHERE project_key = 'handbook' ORDER BY id`);
    after.forEach((d: { indexed_at: Date }, i: number) => expect(d.indexed_at.getTime()).toBeGreaterThan(before[i].indexed_at.getTime()));
  });
});
