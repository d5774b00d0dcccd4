import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith, sessionOf } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

interface TenantWorld {
  tenant: string;
  admin: Caller;
  user: Caller;
  membershipId: string;
  project: string;
}

/**
 * Every id-addressed route of the accounts admin surface, tried by one tenant's admin with another
 * tenant's ids. (Roles are named, not id-addressed, and /api/system-admin is global by design.)
 */
const idRoutes = (
  userId: string,
  membershipId: string,
  project: string,
): Array<[string, string, unknown?]> => [
  ['GET', `/api/admin/users/${userId}`],
  [
    'PATCH',
    `/api/admin/users/${userId}`,
    { name: 'Hijacked', email: 'hijacked@evil.test', roles: ['viewer'] },
  ],
  ['PATCH', `/api/admin/users/${userId}`, { active: false }],
  ['POST', `/api/admin/users/${userId}/deactivate`],
  ['GET', `/api/admin/users/${userId}/memberships`],
  ['POST', `/api/admin/users/${userId}/memberships`, { project_key: project }],
  ['POST', `/api/admin/users/${userId}/memberships`, { project_key: 'default' }],
  ['GET', `/api/admin/memberships/${membershipId}`],
  ['PATCH', `/api/admin/memberships/${membershipId}`, { role: 'owner', scope: 'read' }],
  ['DELETE', `/api/admin/memberships/${membershipId}`],
];

describe('kb-api admin tenant isolation', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let acme: TenantWorld;
  let globex: TenantWorld;
  const as = (
    who: Caller,
    method: string,
    path: string,
    o: { body?: unknown; tenant?: string } = {},
  ) =>
    new KbClient(svc.url).call(method, path, {
      token: who.token,
      body: o.body,
      headers: o.tenant ? { 'x-tenant-id': o.tenant } : {},
    });

  /** Everything an admin write could touch, so "nothing changed" is checked on rows, not on answers. */
  const snapshot = async () => ({
    users: await db.query(
      'SELECT id, tenant_id, name, email, email_key, active, updated_at FROM kb_users ORDER BY id',
    ),
    roles: await db.query(
      'SELECT tenant_id, user_id, role FROM kb_user_roles ORDER BY tenant_id, user_id, role',
    ),
    memberships: await db.query(
      'SELECT id, tenant_id, user_id, project_key, role, scope, updated_at FROM kb_memberships ORDER BY id',
    ),
    sessions: await db.query('SELECT id, user_id FROM kb_sessions ORDER BY id'),
    tokens: await db.query('SELECT id, user_id FROM kb_personal_access_tokens ORDER BY id'),
  });

  const world = async (tenant: string, project: string): Promise<TenantWorld> => {
    const admin = await callerWith(svc.url, db, {
      email: `admin@${tenant}.test`,
      tenant,
      roles: ['admin'],
    });
    const user = await callerWith(svc.url, db, {
      email: `user@${tenant}.test`,
      tenant,
      roles: ['editor'],
    });
    await sessionOf(svc.url, user);
    await db.query(
      'INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ($1, $2, $2), ($1, $3, $3) ON CONFLICT DO NOTHING',
      [tenant, project, 'default'],
    );
    const [m] = await db.query(
      'INSERT INTO kb_memberships (tenant_id, user_id, project_key) VALUES ($1, $2, $3) RETURNING id',
      [tenant, user.id, project],
    );
    return { tenant, admin, user, membershipId: String(m.id), project };
  };

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    acme = await world('acme', 'acme-docs');
    globex = await world('globex', 'globex-docs');
  });
  afterAll(() => stop());

  it.each([
    ['acme', 'globex'],
    ['globex', 'acme'],
  ])("%s's admin gets 404 on every route with %s's ids, and nothing changes", async (from, to) => {
    const actor = from === 'acme' ? acme : globex;
    const victim = to === 'acme' ? acme : globex;
    const before = await snapshot();
    for (const [method, path, body] of idRoutes(
      victim.user.id,
      victim.membershipId,
      victim.project,
    )) {
      const r = await as(actor.admin, method, path, { body });
      expect([method, path, r.status, r.body?.error]).toEqual([method, path, 404, 'not_found']);
    }
    // The victim tenant's admin account is another tenant's user too.
    for (const [method, path, body] of idRoutes(
      victim.admin.id,
      victim.membershipId,
      victim.project,
    ).slice(0, 7)) {
      expect([method, path, (await as(actor.admin, method, path, { body })).status]).toEqual([
        method,
        path,
        404,
      ]);
    }
    expect(await snapshot()).toEqual(before);
    expect((await as(victim.user, 'GET', '/api/auth/me')).status).toBe(200);
  });

  it("lists and searches only the active tenant's users", async () => {
    const list = await as(acme.admin, 'GET', '/api/admin/users?per_page=100');
    expect(list.body.data.map((u: { email: string }) => u.email).sort()).toEqual([
      'admin@acme.test',
      'user@acme.test',
    ]);
    expect((await as(acme.admin, 'GET', '/api/admin/users?search=globex')).body.total).toBe(0);
    const roles = await as(acme.admin, 'GET', '/api/admin/roles');
    expect(roles.body.data.find((r: { name: string }) => r.name === 'editor').users_count).toBe(1);
  });

  it('cannot reach another tenant through X-Tenant-Id (403 tenant_forbidden) and changes nothing', async () => {
    const before = await snapshot();
    for (const [method, path, body] of [
      ['GET', '/api/admin/users'],
      [
        'POST',
        '/api/admin/users',
        { name: 'Mole', email: 'mole@acme.test', password: 'long enough pw' },
      ],
      ...idRoutes(globex.user.id, globex.membershipId, globex.project),
    ] as Array<[string, string, unknown?]>) {
      const r = await as(acme.admin, method, path, { body, tenant: 'globex' });
      expect([method, path, r.status, r.body.error]).toEqual([
        method,
        path,
        403,
        'tenant_forbidden',
      ]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("a guest membership in another tenant belongs to that tenant's admin, not the guest's home admin", async () => {
    // acme's user is given access to a globex project: the membership row is globex's.
    const [guest] = await db.query(
      `INSERT INTO kb_memberships (tenant_id, user_id, project_key) VALUES ('globex', $1, 'globex-docs') RETURNING id`,
      [acme.user.id],
    );
    const before = await snapshot();
    for (const [method, path, body] of [
      ['GET', `/api/admin/memberships/${guest.id}`],
      ['PATCH', `/api/admin/memberships/${guest.id}`, { scope: 'read' }],
      ['DELETE', `/api/admin/memberships/${guest.id}`],
    ] as Array<[string, string, unknown?]>) {
      expect([method, path, (await as(acme.admin, method, path, { body })).status]).toEqual([
        method,
        path,
        404,
      ]);
    }
    expect(await snapshot()).toEqual(before);
    // acme's admin lists acme's memberships of their own user only.
    expect(
      (await as(acme.admin, 'GET', `/api/admin/users/${acme.user.id}/memberships`)).body.data.map(
        (m: { tenant_id: string }) => m.tenant_id,
      ),
    ).toEqual(['acme']);
    // globex's admin manages the guest's access to globex.
    const patched = await as(globex.admin, 'PATCH', `/api/admin/memberships/${guest.id}`, {
      body: { scope: 'read' },
    });
    expect(patched.body.data).toMatchObject({
      tenant_id: 'globex',
      user_id: Number(acme.user.id),
      scope: 'read',
    });
    expect((await as(globex.admin, 'DELETE', `/api/admin/memberships/${guest.id}`)).status).toBe(
      204,
    );
  });

  it('no tenant role carries a platform permission, and role editing cannot add one (422 naming it)', async () => {
    const grants = await db.query(
      `SELECT DISTINCT permission FROM kb_effective_role_permissions WHERE permission IN ('tenant.cross-access', 'platform.admin')`,
    );
    expect(grants).toEqual([]);
    const owner = await callerWith(svc.url, db, {
      email: 'owner@acme.test',
      tenant: 'acme',
      roles: ['super-admin'],
    });
    const before = await db.query('SELECT * FROM kb_tenant_role_grants ORDER BY tenant_id, role');
    for (const permission of ['tenant.cross-access', 'platform.admin']) {
      const r = await as(owner, 'PATCH', '/api/admin/roles/viewer', {
        body: { permissions: ['kb.read.any', permission] },
      });
      expect([permission, r.status, r.body.errors]).toEqual([
        permission,
        422,
        { permissions: [`${permission} is a platform permission; a tenant role cannot carry it.`] },
      ]);
    }
    expect(
      (await as(owner, 'PATCH', '/api/admin/roles/viewer', { body: { permissions: ['kb.fly'] } }))
        .body.errors,
    ).toEqual({ permissions: ['The selected permissions are invalid.'] });
    expect(await db.query('SELECT * FROM kb_tenant_role_grants ORDER BY tenant_id, role')).toEqual(
      before,
    );
    // The viewer still cannot cross, and neither can the tenant's super-admin.
    for (const who of [acme.user, owner]) {
      const r = await as(who, 'GET', '/api/auth/me', { tenant: 'globex' });
      expect([who.email, r.status, r.body.error]).toEqual([who.email, 403, 'tenant_forbidden']);
    }
    expect((await as(owner, 'GET', '/api/admin/permissions')).body.data.map((p: { name: string }) => p.name)).not.toContain(
      'tenant.cross-access',
    );
  });
});
