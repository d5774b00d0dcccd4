import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

describe('kb-api admin: maintenance commands', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let editor: Caller;
  let admin: Caller;
  let superAdmin: Caller;
  let other: { id: string };
  const as = (who: Caller | undefined, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    new KbClient(svc.url).call(method, path, { token: who?.token, body, headers });
  const counts = async (sql: string) => (await db.query(`SELECT count(*)::int AS n FROM ${sql}`))[0].n as number;

  /** Rows the commands act on, in tenant default (and the same in tenant other, which must stay). */
  async function seed(tenant: string, userId: string) {
    await db.query(
      `INSERT INTO kb_sessions (token_hash, csrf_hash, user_id, tenant_id, expires_at)
       SELECT md5(random()::text || g), 'x', $2, $1, now() - interval '1 hour' FROM generate_series(1, 3) g`,
      [tenant, userId],
    );
    await db.query(
      `INSERT INTO kb_personal_access_tokens (tenant_id, user_id, name, token_hash, abilities, expires_at)
       SELECT $1, $2, 'old', md5(random()::text || g), '[]', now() - interval '1 day' FROM generate_series(1, 2) g`,
      [tenant, userId],
    );
    await db.query(
      `INSERT INTO kb_chat_logs (tenant_id, question, answer, citations, confidence, latency_ms, created_at)
       SELECT $1, 'q', 'a', '[]', 1, 1, now() - make_interval(days => g) + interval '1 hour' FROM generate_series(1, 10) g`,
      [tenant],
    );
    await db.query(
      `INSERT INTO kb_notifications (tenant_id, user_id, event_type, created_at, read_at)
       VALUES ($1, $2, 'x', now() - interval '100 days', now()), ($1, $2, 'x', now() - interval '100 days', NULL), ($1, $2, 'x', now(), now())`,
      [tenant, userId],
    );
    await db.query(
      `INSERT INTO kb_documents (tenant_id, project_key, source_path, title, slug, mime_type, source_type, storage_key, deleted_at, chunk_count)
       VALUES ($1, 'p', 'old.md', 'Old', 'old', 'text/markdown', 'markdown', $1 || '/p/old.md', now() - interval '40 days', 3),
              ($1, 'p', 'recent.md', 'Recent', 'recent', 'text/markdown', 'markdown', $1 || '/p/recent.md', now() - interval '2 days', 1)`,
      [tenant],
    );
  }

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    editor = await callerWith(svc.url, db, { email: 'editor@cmd.test', roles: ['editor'] });
    admin = await callerWith(svc.url, db, { email: 'admin@cmd.test', roles: ['admin'] });
    superAdmin = await callerWith(svc.url, db, { email: 'super@cmd.test', roles: ['super-admin'] });
    other = await createUser(db, { email: 'someone@other.test', tenant: 'other', roles: ['admin'] });
    await seed('default', admin.id);
    await seed('other', other.id);
  }, 60_000);
  afterAll(() => stop());

  it('answers 401 to guests, 403 to editors and lets G1 through on every route', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/commands/catalogue'],
      ['POST', '/api/admin/commands/preview', { command: 'prune-expired-auth' }],
      ['POST', '/api/admin/commands/run', { command: 'prune-notifications', params: { older_than_days: 3650 } }],
      ['GET', '/api/admin/commands/history'],
      ['GET', '/api/admin/commands/scheduler-status'],
    ];
    for (const [method, path, body] of routes) {
      expect([path, (await as(undefined, method, path, body)).status]).toEqual([path, 401]);
      expect([path, (await as(editor, method, path, body)).status]).toEqual([path, 403]);
      expect([path, (await as(admin, method, path, body)).status]).toEqual([path, 200]);
    }
  });

  it('lists typed parameters and says which commands the caller may run', async () => {
    const forAdmin = (await as(admin, 'GET', '/api/admin/commands/catalogue')).body.data;
    const names = forAdmin.map((c: { name: string }) => c.name);
    expect(names).toEqual(expect.arrayContaining(['prune-expired-auth', 'purge-deleted-documents', 'prune-chat-logs', 'prune-notifications', 'reindex-project']));
    const purge = forAdmin.find((c: { name: string }) => c.name === 'purge-deleted-documents');
    expect(purge).toMatchObject({ destructive: true, allowed: false, params: [{ name: 'grace_days', type: 'integer', default: 30, minimum: 1 }] });
    const forSuper = (await as(superAdmin, 'GET', '/api/admin/commands/catalogue')).body.data;
    expect(forSuper.find((c: { name: string }) => c.name === 'purge-deleted-documents').allowed).toBe(true);
  });

  it('validates the command and its parameters by field', async () => {
    const unknown = await as(admin, 'POST', '/api/admin/commands/preview', { command: 'drop-everything' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.command).toBeDefined();
    const bad = await as(admin, 'POST', '/api/admin/commands/preview', { command: 'prune-chat-logs', params: { older_than_days: 0, extra: 1 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['params.extra', 'params.older_than_days']);
    const missing = await as(admin, 'POST', '/api/admin/commands/run', { command: 'reindex-project' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors['params.project_key']).toBeDefined();
  });

  it('previews without changing anything, then the run changes exactly what the preview said (tenant scoped)', async () => {
    const before = await counts(`kb_sessions`);
    const preview = await as(admin, 'POST', '/api/admin/commands/preview', { command: 'prune-expired-auth' });
    expect(preview.body.data).toMatchObject({ command: 'prune-expired-auth', destructive: false, would_change: { sessions: 3, personal_access_tokens: 2 } });
    expect(await counts('kb_sessions')).toBe(before);

    const run = await as(admin, 'POST', '/api/admin/commands/run', { command: 'prune-expired-auth' });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ command: 'prune-expired-auth', status: 'succeeded', trigger: 'api', result: { sessions: 3, personal_access_tokens: 2 }, actor: { id: admin.id } });
    expect(run.body.data.duration_ms).toBeGreaterThanOrEqual(0);
    expect(await counts(`kb_sessions WHERE tenant_id = 'default' AND expires_at < now()`)).toBe(0);
    expect(await counts(`kb_sessions WHERE tenant_id = 'other' AND expires_at < now()`)).toBe(3);
    expect((await as(admin, 'POST', '/api/admin/commands/preview', { command: 'prune-expired-auth' })).body.data.would_change).toEqual({ sessions: 0, personal_access_tokens: 0 });

    const notif = await as(admin, 'POST', '/api/admin/commands/preview', { command: 'prune-notifications', params: { older_than_days: 30 } });
    expect(notif.body.data.would_change).toEqual({ notifications: 1 });
    expect((await as(admin, 'POST', '/api/admin/commands/run', { command: 'prune-notifications', params: { older_than_days: 30 } })).body.data.result).toEqual({ notifications: 1 });
    expect(await counts(`kb_notifications WHERE tenant_id = 'default'`)).toBe(2);
  });

  it('needs commands.destructive to run a destructive command, not to preview it', async () => {
    const preview = await as(admin, 'POST', '/api/admin/commands/preview', { command: 'prune-chat-logs', params: { older_than_days: 7 } });
    expect(preview.body.data.would_change).toEqual({ chat_logs: 3 });
    expect((await as(admin, 'POST', '/api/admin/commands/run', { command: 'prune-chat-logs', params: { older_than_days: 7 } })).status).toBe(403);
    const run = await as(superAdmin, 'POST', '/api/admin/commands/run', { command: 'prune-chat-logs', params: { older_than_days: 7 } });
    expect(run.body.data).toMatchObject({ status: 'succeeded', result: { chat_logs: 3 } });
    expect(await counts(`kb_chat_logs WHERE tenant_id = 'default'`)).toBe(7);
    expect(await counts(`kb_chat_logs WHERE tenant_id = 'other'`)).toBe(10);

    const purgePreview = await as(superAdmin, 'POST', '/api/admin/commands/preview', { command: 'purge-deleted-documents' });
    expect(purgePreview.body.data.would_change).toEqual({ documents: 1, chunks: 3, stored_files: 1 });
    const purge = await as(superAdmin, 'POST', '/api/admin/commands/run', { command: 'purge-deleted-documents' });
    expect(purge.body.data.result).toEqual({ documents: 1, chunks: 3, stored_files: 1 });
    expect((await db.query(`SELECT source_path FROM kb_documents WHERE tenant_id = 'default'`)).map((r: { source_path: string }) => r.source_path)).toEqual(['recent.md']);
  });

  it('runs once per Idempotency-Key and refuses the key for another request', async () => {
    const headers = { 'idempotency-key': 'nightly-2026-11-24' };
    const body = { command: 'prune-notifications', params: { older_than_days: 1, only_read: false } };
    const first = await as(admin, 'POST', '/api/admin/commands/run', body, headers);
    expect(first.body.data.result).toEqual({ notifications: 1 });
    const again = await as(admin, 'POST', '/api/admin/commands/run', body, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await counts(`kb_command_runs WHERE idempotency_key = 'nightly-2026-11-24'`)).toBe(1);
    const other = await as(admin, 'POST', '/api/admin/commands/run', { ...body, params: { older_than_days: 2 } }, headers);
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('idempotency_key_reused');
  });

  it('pages the history, newest first, filtered by command', async () => {
    const page = await as(admin, 'GET', '/api/admin/commands/history?per_page=2');
    expect(page.body).toMatchObject({ current_page: 1, per_page: 2 });
    expect(page.body.total).toBeGreaterThanOrEqual(5);
    expect(page.body.data).toHaveLength(2);
    expect(Number(page.body.data[0].id)).toBeGreaterThan(Number(page.body.data[1].id));
    const filtered = await as(admin, 'GET', '/api/admin/commands/history?command=prune-chat-logs');
    expect(filtered.body.data.map((r: { command: string }) => r.command)).toEqual(['prune-chat-logs']);
    expect((await as(admin, 'GET', '/api/admin/commands/history?per_page=500')).status).toBe(422);
  });

  it('reports each schedule with its last run and next due time', async () => {
    const status = (await as(admin, 'GET', '/api/admin/commands/scheduler-status')).body.data;
    const auth = status.find((s: { command: string }) => s.command === 'prune-expired-auth');
    expect(auth).toMatchObject({ cron: '17 * * * *', timezone: 'Etc/UTC', cli_task: 'commands:run prune-expired-auth', last_run: { status: 'succeeded', trigger: 'api' } });
    const due = new Date(auth.next_due_at);
    expect(due.getUTCMinutes()).toBe(17);
    expect(due.getTime()).toBeGreaterThan(Date.now());
    expect(due.getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
    const purge = status.find((s: { command: string }) => s.command === 'purge-deleted-documents');
    expect(purge.last_run).not.toBeNull();
  });
});
