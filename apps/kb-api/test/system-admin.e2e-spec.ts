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
    const statuses = [];
    for (const [method, path, body] of routes)
      statuses.push((await as(platform, method, path, { body })).status);
    expect(statuses).toEqual([200, 201, 200, 200, 200]);
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
    expect(all.body.data.find((t: { id: string }) => t.id === 'default').users_count).toBe(2);
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
});
