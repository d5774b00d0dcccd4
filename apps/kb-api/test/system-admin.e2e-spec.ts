import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith, sessionOf } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

describe('kb-api /api/system-admin/tenants', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let platform: Caller;
  let tenantSuper: Caller;
  const as = (
    who: Caller | undefined,
    method: string,
    path: string,
    o: { body?: unknown; headers?: Record<string, string> } = {},
  ) => new KbClient(svc.url).call(method, path, { token: who?.token, ...o });

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    platform = await callerWith(svc.url, db, {
      email: 'platform@sys.test',
      roles: ['viewer'],
      platformAdmin: true,
    });
    tenantSuper = await callerWith(svc.url, db, {
      email: 'super@sys.test',
      roles: ['super-admin'],
    });
  });
  afterAll(() => stop());

  it('needs platform.admin: guests 401, a tenant super-admin 403, a platform admin 200/201', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/system-admin/tenants'],
      ['POST', '/api/system-admin/tenants', { id: 'gated', name: 'Gated' }],
      ['GET', '/api/system-admin/tenants/default'],
      ['POST', '/api/system-admin/tenants/default/suspend'],
      ['POST', '/api/system-admin/tenants/default/resume'],
      [
        'POST',
        '/api/system-admin/tenants/default/admins',
        { name: 'Gated', email: 'gated@sys.test', password: 'long enough pw' },
      ],
      ['GET', '/api/system-admin/cross-tenant-audit'],
    ];
    for (const [method, path, body] of routes) {
      expect([path, (await as(undefined, method, path, { body })).status]).toEqual([path, 401]);
      const denied = await as(tenantSuper, method, path, { body });
      expect([path, denied.status, denied.body]).toEqual([
        path,
        403,
        { message: 'This action is unauthorized.' },
      ]);
    }
    expect((await db.query(`SELECT status FROM kb_tenants WHERE id = 'default'`))[0].status).toBe(
      'active',
    );
    expect(await db.query(`SELECT id FROM kb_tenants WHERE id = 'gated'`)).toEqual([]);
    expect(await db.query(`SELECT id FROM kb_users WHERE email_key = 'gated@sys.test'`)).toEqual([]);
    const statuses = [];
    for (const [method, path, body] of routes)
      statuses.push((await as(platform, method, path, { body })).status);
    expect(statuses).toEqual([200, 201, 200, 200, 200, 201, 200]);
  });

  it('creates tenants with a default project, validates ids, refuses duplicates, lists with search and status', async () => {
    const created = await as(platform, 'POST', '/api/system-admin/tenants', {
      body: { id: 'acme-eu', name: ' Acme EU ' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: 'acme-eu',
      name: 'Acme EU',
      status: 'active',
      users_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(
      await db.query(`SELECT project_key FROM kb_projects WHERE tenant_id = 'acme-eu'`),
    ).toEqual([{ project_key: 'default' }]);
    const dup = await as(platform, 'POST', '/api/system-admin/tenants', {
      body: { id: 'acme-eu', name: 'Again' },
    });
    expect(dup).toMatchObject({
      status: 422,
      body: { errors: { id: ['The id has already been taken.'] } },
    });
    for (const id of ['Acme', 'a b', '', 'x'.repeat(51), 'ünï', 42]) {
      const bad = await as(platform, 'POST', '/api/system-admin/tenants', {
        body: { id, name: 'Bad' },
      });
      expect([id, bad.status, Object.keys(bad.body.errors ?? {})]).toEqual([id, 422, ['id']]);
    }
    expect(
      (await as(platform, 'POST', '/api/system-admin/tenants', { body: { id: 'noname' } })).body
        .errors.name,
    ).toBeDefined();

    await as(platform, 'POST', '/api/system-admin/tenants', {
      body: { id: 'acme-us', name: 'Acme US' },
    });
    const list = await as(platform, 'GET', '/api/system-admin/tenants?search=acme&per_page=1');
    expect(list.body).toMatchObject({ current_page: 1, per_page: 1, total: 2, last_page: 2 });
    expect(list.body.data[0].id).toBe('acme-eu');
    const all = await as(platform, 'GET', '/api/system-admin/tenants');
    expect(all.body.data.find((t: { id: string }) => t.id === 'default').users_count).toBe(3);
    expect((await as(platform, 'GET', '/api/system-admin/tenants?status=frozen')).status).toBe(422);
    expect((await as(platform, 'GET', '/api/system-admin/tenants/nope')).body).toEqual({
      error: 'not_found',
      message: 'Tenant not found.',
    });
    expect((await as(platform, 'GET', '/api/system-admin/tenants/NOT%20VALID')).status).toBe(404);
    expect((await as(platform, 'POST', '/api/system-admin/tenants/nope/suspend')).status).toBe(404);
  });

  it('suspends a tenant (its requests answer 403 tenant_suspended) and resumes it', async () => {
    await as(platform, 'POST', '/api/system-admin/tenants', {
      body: { id: 'initech', name: 'Initech' },
    });
    const worker = await callerWith(svc.url, db, {
      email: 'worker@initech.test',
      tenant: 'initech',
      roles: ['admin'],
    });
    const session = await sessionOf(svc.url, worker);
    expect((await as(worker, 'GET', '/api/admin/users')).status).toBe(200);

    const suspended = await as(platform, 'POST', '/api/system-admin/tenants/initech/suspend');
    expect(suspended.body.data).toMatchObject({
      id: 'initech',
      status: 'suspended',
      users_count: 1,
    });
    for (const r of [
      await as(worker, 'GET', '/api/admin/users'),
      await as(worker, 'GET', '/api/auth/me'),
      await session.call('GET', '/api/auth/me'),
    ]) {
      expect(r).toMatchObject({ status: 403, body: { error: 'tenant_suspended' } });
    }
    expect(
      (await as(platform, 'GET', '/api/system-admin/tenants?status=suspended')).body.data.map(
        (t: { id: string }) => t.id,
      ),
    ).toEqual(['initech']);

    expect(
      (await as(platform, 'POST', '/api/system-admin/tenants/initech/resume')).body.data.status,
    ).toBe('active');
    expect((await as(worker, 'GET', '/api/admin/users')).status).toBe(200);
  });

  it('is global: X-Tenant-Id is not read, and a platform admin homed in a suspended tenant still gets in', async () => {
    const r = await as(platform, 'GET', '/api/system-admin/tenants', {
      headers: { 'x-tenant-id': 'Not A Tenant!' },
    });
    expect(r.status).toBe(200);
    await as(platform, 'POST', '/api/system-admin/tenants', {
      body: { id: 'ops-home', name: 'Ops' },
    });
    const ops = await callerWith(svc.url, db, {
      email: 'ops@home.test',
      tenant: 'ops-home',
      platformAdmin: true,
    });
    await as(platform, 'POST', '/api/system-admin/tenants/ops-home/suspend');
    expect((await as(ops, 'GET', '/api/auth/me')).status).toBe(403);
    expect((await as(ops, 'POST', '/api/system-admin/tenants/ops-home/resume')).status).toBe(200);
  });

  it('onboards a tenant with its first admin, who signs in, gets a token and runs the tenant', async () => {
    const created = await as(platform, 'POST', '/api/system-admin/tenants', {
      body: {
        id: 'umbrella',
        name: 'Umbrella',
        admin: { name: ' Alice ', email: 'Alice@Umbrella.test', password: 'alice password 1' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: 'umbrella', status: 'active', users_count: 1 });
    expect(created.body.admin).toMatchObject({
      tenant_id: 'umbrella',
      name: 'Alice',
      email: 'Alice@Umbrella.test',
      roles: ['super-admin'],
      active: true,
    });
    // Nothing platform-wide comes with it.
    expect(
      await db.query(
        `SELECT permission FROM kb_user_permissions WHERE user_id = $1`,
        [created.body.admin.id],
      ),
    ).toEqual([]);

    const issued = await new KbClient(svc.url).call('POST', '/api/auth/token', {
      body: { email: 'alice@umbrella.test', password: 'alice password 1' },
    });
    expect(issued.status).toBe(201);
    const alice = { id: String(created.body.admin.id), email: 'alice@umbrella.test', password: '', token: issued.body.token };
    const me = await as(alice, 'GET', '/api/auth/me');
    expect(me.body).toMatchObject({
      roles: ['super-admin'],
      projects: [{ project_key: 'default', role: 'owner', scope: 'full' }],
    });
    expect(me.body.permissions).toContain('roles.manage');
    expect(me.body.permissions).not.toContain('platform.admin');
    // Every tenant route is open to her: accounts, roles, widget keys, MCP tokens, ingest, search.
    const colleague = await as(alice, 'POST', '/api/admin/users', {
      body: { name: 'Bob', email: 'bob@umbrella.test', password: 'bob password 1', roles: ['viewer'] },
    });
    expect(colleague).toMatchObject({ status: 201, body: { data: { tenant_id: 'umbrella' } } });
    expect((await as(alice, 'GET', '/api/admin/roles')).status).toBe(200);
    expect(
      (await as(alice, 'POST', '/api/admin/widget-keys', {
        body: { label: 'site', project_key: 'default', allowed_origins: ['https://umbrella.test'] },
      })).status,
    ).toBe(201);
    expect((await as(alice, 'POST', '/api/admin/mcp/tokens', { body: { label: 'desk' } })).status).toBe(201);
    const ingested = await as(alice, 'POST', '/api/kb/ingest', {
      body: { documents: [{ source_path: 'hello.md', content: '# Hello\n\nUmbrella docs.' }] },
    });
    expect(ingested.status).toBe(202);
    expect(
      await db.query(`SELECT tenant_id, created_by::text AS created_by FROM kb_documents WHERE source_path = 'hello.md'`),
    ).toEqual([{ tenant_id: 'umbrella', created_by: alice.id }]);
    // Her tenant is hers alone: the default tenant stays closed.
    expect(
      (await as(alice, 'GET', '/api/auth/me', { headers: { 'x-tenant-id': 'default' } })).body,
    ).toMatchObject({ error: 'tenant_forbidden' });
    expect((await as(alice, 'GET', '/api/system-admin/tenants')).status).toBe(403);
  });

  it('adds an admin to an existing tenant; validates, refuses taken emails and unknown tenants, keeps nothing half-made', async () => {
    const added = await as(platform, 'POST', '/api/system-admin/tenants/umbrella/admins', {
      body: { name: 'Carol', email: 'carol@umbrella.test', password: 'carol password 1', role: 'admin' },
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ tenant_id: 'umbrella', roles: ['admin'] });
    const carol = await new KbClient(svc.url).call('POST', '/api/auth/token', {
      body: { email: 'carol@umbrella.test', password: 'carol password 1' },
    });
    expect((await new KbClient(svc.url).call('GET', '/api/admin/users', { token: carol.body.token })).body.total).toBe(3);

    const taken = await as(platform, 'POST', '/api/system-admin/tenants/umbrella/admins', {
      body: { name: 'Again', email: 'CAROL@umbrella.test', password: 'carol password 2' },
    });
    expect(taken).toMatchObject({ status: 422, body: { errors: { email: ['The email has already been taken.'] } } });
    expect(
      (await as(platform, 'POST', '/api/system-admin/tenants/nope/admins', {
        body: { name: 'X', email: 'x@nope.test', password: 'long enough pw' },
      })).body,
    ).toEqual({ error: 'not_found', message: 'Tenant not found.' });
    const bad = await as(platform, 'POST', '/api/system-admin/tenants/umbrella/admins', {
      body: { name: '', email: 'not an email', password: 'short', role: 'viewer' },
    });
    expect([bad.status, Object.keys(bad.body.errors).sort()]).toEqual([422, ['email', 'name', 'password', 'role']]);

    // A tenant with a taken admin email is not created either.
    const half = await as(platform, 'POST', '/api/system-admin/tenants', {
      body: { id: 'half', name: 'Half', admin: { name: 'Dup', email: 'carol@umbrella.test', password: 'long enough pw' } },
    });
    expect(half).toMatchObject({ status: 422, body: { errors: { 'admin.email': ['The email has already been taken.'] } } });
    expect(await db.query(`SELECT id FROM kb_tenants WHERE id = 'half'`)).toEqual([]);
    const nested = await as(platform, 'POST', '/api/system-admin/tenants', {
      body: { id: 'half', name: 'Half', admin: { email: 'dup' } },
    });
    expect(nested.status).toBe(422);
    expect(Object.keys(nested.body.errors).sort()).toEqual(['admin.email', 'admin.name', 'admin.password']);

    // null is not "no first admin" nor "the default role": refused by name, nothing made.
    const noAdmin = await as(platform, 'POST', '/api/system-admin/tenants', { body: { id: 'half', name: 'Half', admin: null } });
    expect([noAdmin.status, Object.keys(noAdmin.body.errors)]).toEqual([422, ['admin']]);
    const noRole = await as(platform, 'POST', '/api/system-admin/tenants', {
      body: { id: 'half', name: 'Half', admin: { name: 'Dan', email: 'dan@half.test', password: 'long enough pw', role: null } },
    });
    expect([noRole.status, Object.keys(noRole.body.errors)]).toEqual([422, ['admin.role']]);
    expect(await db.query(`SELECT id FROM kb_tenants WHERE id = 'half'`)).toEqual([]);
    const nullRole = await as(platform, 'POST', '/api/system-admin/tenants/umbrella/admins', {
      body: { name: 'Dan', email: 'dan@umbrella.test', password: 'long enough pw', role: null },
    });
    expect([nullRole.status, Object.keys(nullRole.body.errors)]).toEqual([422, ['role']]);
    expect(await db.query(`SELECT id FROM kb_users WHERE email_key IN ('dan@half.test', 'dan@umbrella.test')`)).toEqual([]);
  });

  it('lets a platform admin act in another tenant and records each request; the audit pages and filters', async () => {
    const before = (await as(platform, 'GET', '/api/system-admin/cross-tenant-audit')).body.total;
    const inUmbrella = { 'x-tenant-id': 'umbrella' };
    expect((await as(platform, 'GET', '/api/auth/me', { headers: inUmbrella })).status).toBe(200);
    expect(
      (await as(platform, 'GET', '/api/kb/documents/search?q=hello', { headers: inUmbrella })).status,
    ).toBe(200);
    // Own tenant and global routes are not crossings.
    await as(platform, 'GET', '/api/auth/me');
    await as(platform, 'GET', '/api/system-admin/tenants', { headers: inUmbrella });

    const page = await as(platform, 'GET', '/api/system-admin/cross-tenant-audit?tenant_id=umbrella&per_page=1');
    expect(page.body).toMatchObject({ current_page: 1, per_page: 1, total: 2, last_page: 2 });
    expect(page.body.data[0]).toEqual({
      id: expect.any(Number),
      actor_user_id: Number(platform.id),
      actor_email: 'platform@sys.test',
      credential: 'token',
      home_tenant_id: 'default',
      target_tenant_id: 'umbrella',
      method: 'GET',
      route: '/api/kb/documents/search',
      path: '/api/kb/documents/search',
      request_id: expect.any(String),
      created_at: expect.any(String),
    });
    const all = await as(platform, 'GET', `/api/system-admin/cross-tenant-audit?actor_user_id=${platform.id}`);
    expect(all.body.total).toBe(before + 2);
    expect((await as(platform, 'GET', '/api/system-admin/cross-tenant-audit?tenant_id=Bad!')).status).toBe(422);
    expect((await as(platform, 'GET', '/api/system-admin/cross-tenant-audit?per_page=101')).status).toBe(422);
  });
});
