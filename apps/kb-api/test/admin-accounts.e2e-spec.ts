import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith, sessionOf } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

describe('kb-api admin: users, roles, permissions, memberships', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let viewer: Caller;
  let editor: Caller;
  let admin: Caller;
  let superAdmin: Caller;
  const client = () => new KbClient(svc.url);
  const as = (who: Caller | undefined, method: string, path: string, body?: unknown) =>
    client().call(method, path, { token: who?.token, body });

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    viewer = await callerWith(svc.url, db, { email: 'viewer@acc.test', roles: ['viewer'] });
    editor = await callerWith(svc.url, db, { email: 'editor@acc.test', roles: ['editor'] });
    admin = await callerWith(svc.url, db, {
      email: 'admin@acc.test',
      name: 'Ada Admin',
      roles: ['admin'],
    });
    superAdmin = await callerWith(svc.url, db, { email: 'super@acc.test', roles: ['super-admin'] });
  });
  afterAll(() => stop());

  describe('gate G1 on every route', () => {
    it('answers 401 to guests, 403 to viewers and editors, and lets admins and super-admins through', async () => {
      const target = await callerWith(svc.url, db, {
        email: 'gate-target@acc.test',
        roles: ['viewer'],
      });
      const [membership] = await db.query(
        `INSERT INTO kb_memberships (tenant_id, user_id, project_key) VALUES ('default', $1, 'default') RETURNING id`,
        [target.id],
      );
      const routes: Array<[string, string, unknown?]> = [
        ['GET', '/api/admin/users'],
        [
          'POST',
          '/api/admin/users',
          { name: 'Gate', email: 'gate-new@acc.test', password: 'long enough pw' },
        ],
        ['GET', `/api/admin/users/${target.id}`],
        ['PATCH', `/api/admin/users/${target.id}`, { name: 'Renamed' }],
        ['GET', `/api/admin/users/${target.id}/memberships`],
        ['GET', `/api/admin/memberships/${membership.id}`],
        ['PATCH', `/api/admin/memberships/${membership.id}`, { scope: 'read' }],
        ['GET', '/api/admin/roles'],
        ['GET', '/api/admin/permissions'],
      ];
      for (const [method, path, body] of routes) {
        expect([method, path, (await as(undefined, method, path, body)).status]).toEqual([
          method,
          path,
          401,
        ]);
        for (const denied of [viewer, editor]) {
          const r = await as(denied, method, path, body);
          expect([method, path, r.status, r.body]).toEqual([
            method,
            path,
            403,
            { message: 'This action is unauthorized.' },
          ]);
        }
      }
      const ok = [];
      for (const [method, path, body] of routes)
        ok.push((await as(admin, method, path, body)).status);
      expect(ok).toEqual([200, 201, 200, 200, 200, 200, 200, 200, 200]);
      for (const [method, path] of routes.filter(([m]) => m === 'GET'))
        expect((await as(superAdmin, method, path)).status).toBe(200);

      const creating = await as(admin, 'POST', `/api/admin/users/${target.id}/memberships`, {
        project_key: 'nope',
      });
      expect(creating.status).toBe(422); // past the gate: the unknown project is the problem
      expect(
        (
          await as(viewer, 'POST', `/api/admin/users/${target.id}/memberships`, {
            project_key: 'default',
          })
        ).status,
      ).toBe(403);
      expect((await as(viewer, 'POST', `/api/admin/users/${target.id}/deactivate`)).status).toBe(
        403,
      );
      expect((await as(viewer, 'DELETE', `/api/admin/memberships/${membership.id}`)).status).toBe(
        403,
      );
      expect(
        (await as(undefined, 'DELETE', `/api/admin/memberships/${membership.id}`)).status,
      ).toBe(401);
      expect((await as(admin, 'DELETE', `/api/admin/memberships/${membership.id}`)).status).toBe(
        204,
      );
      expect((await as(admin, 'POST', `/api/admin/users/${target.id}/deactivate`)).status).toBe(
        200,
      );
    });

    it('applies to cookie sessions too, with CSRF on writes', async () => {
      const session = await sessionOf(svc.url, admin);
      expect((await session.call('GET', '/api/admin/users')).status).toBe(200);
      const forged = await session.call('POST', '/api/admin/users', {
        body: { name: 'X', email: 'csrf-new@acc.test', password: 'long enough pw' },
        csrf: false,
      });
      expect(forged).toMatchObject({ status: 403, body: { error: 'csrf_token_mismatch' } });
      expect(
        (
          await session.call('POST', '/api/admin/users', {
            body: { name: 'X', email: 'csrf-new@acc.test', password: 'long enough pw' },
          })
        ).status,
      ).toBe(201);
    });
  });

  describe('users', () => {
    it('lists with Laravel-style pages, search on name or email (literal % and _), and active/role filters', async () => {
      for (const [i, name] of ['Pat Page', 'Pam Page', 'Pia Page'].entries()) {
        await callerWith(svc.url, db, {
          email: `page${i}@list.test`,
          name,
          roles: i === 2 ? ['editor'] : ['viewer'],
          active: true,
        });
      }
      await db.query(`UPDATE kb_users SET active = false WHERE email_key = 'page1@list.test'`);
      const first = await as(admin, 'GET', '/api/admin/users?search=page&per_page=2');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
      expect(first.body.data.map((u: { name: string }) => u.name)).toEqual([
        'Pat Page',
        'Pam Page',
      ]);
      expect(first.body.data[0]).toEqual({
        id: expect.any(Number),
        tenant_id: 'default',
        name: 'Pat Page',
        email: 'page0@list.test',
        active: true,
        roles: ['viewer'],
        email_verified_at: null,
        two_factor_enabled: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const second = await as(admin, 'GET', '/api/admin/users?search=PAGE&per_page=2&page=2');
      expect(second.body.data.map((u: { name: string }) => u.name)).toEqual(['Pia Page']);
      expect(
        (await as(admin, 'GET', '/api/admin/users?search=LIST.TEST&active=false')).body.data.map(
          (u: { email: string }) => u.email,
        ),
      ).toEqual(['page1@list.test']);
      expect(
        (await as(admin, 'GET', '/api/admin/users?search=list.test&role=editor')).body.data.map(
          (u: { email: string }) => u.email,
        ),
      ).toEqual(['page2@list.test']);
      expect((await as(admin, 'GET', '/api/admin/users?search=p%25ge')).body.total).toBe(0);
      expect((await as(admin, 'GET', '/api/admin/users?search=p_ge')).body.total).toBe(0);
      const empty = await as(admin, 'GET', '/api/admin/users?search=page&page=9');
      expect(empty.body).toMatchObject({ data: [], current_page: 9, total: 3, last_page: 1 });

      const bad = await as(
        admin,
        'GET',
        '/api/admin/users?per_page=0&page=x&role=owner&active=maybe&extra=1',
      );
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors).sort()).toEqual([
        'active',
        'extra',
        'page',
        'per_page',
        'role',
      ]);
      expect(
        (await as(admin, 'GET', '/api/admin/users?per_page=101')).body.errors.per_page,
      ).toEqual(['The per page field must not be greater than 100.']);
    });

    it('creates a user homed in the active tenant with an argon2id hash and a unique global identity key', async () => {
      const r = await as(admin, 'POST', '/api/admin/users', {
        name: ' New Person ',
        email: '  New.Person@Acc.TEST ',
        password: 'new person password',
        roles: ['editor', 'viewer'],
      });
      expect(r.status).toBe(201);
      expect(r.body.data).toMatchObject({
        name: 'New Person',
        email: 'New.Person@Acc.TEST',
        active: true,
        roles: ['editor', 'viewer'],
        tenant_id: 'default',
      });
      const [row] = await db.query(`SELECT email_key, password_hash FROM kb_users WHERE id = $1`, [
        r.body.data.id,
      ]);
      expect(row.email_key).toBe('new.person@acc.test');
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      const login = await client().call('POST', '/api/auth/login', {
        body: { email: 'new.person@acc.test', password: 'new person password' },
      });
      expect(login.status).toBe(200);

      const taken = await as(admin, 'POST', '/api/admin/users', {
        name: 'Twin',
        email: 'NEW.person@acc.test',
        password: 'another password',
      });
      expect(taken).toMatchObject({
        status: 422,
        body: { errors: { email: ['The email has already been taken.'] } },
      });
      const invalid = await as(admin, 'POST', '/api/admin/users', {
        email: 'nope',
        password: 'short',
        roles: ['root', 'root'],
      });
      expect(invalid.status).toBe(422);
      expect(Object.keys(invalid.body.errors).sort()).toEqual([
        'email',
        'name',
        'password',
        'roles',
      ]);
      expect(
        (
          await as(admin, 'POST', '/api/admin/users', {
            name: 'A',
            email: 'a@acc.test',
            password: 'long enough',
            tenant_id: 'other',
          })
        ).status,
      ).toBe(422);
      // null is not "no roles" nor "active by default": refused by name, no account made.
      const nulls = await as(admin, 'POST', '/api/admin/users', {
        name: 'Null Person',
        email: 'null.person@acc.test',
        password: 'long enough',
        roles: null,
        active: null,
      });
      expect([nulls.status, Object.keys(nulls.body.errors).sort()]).toEqual([422, ['active', 'roles']]);
      expect(
        (await db.query(`SELECT count(*)::int AS n FROM kb_users WHERE email_key = 'null.person@acc.test'`))[0].n,
      ).toBe(0);
    });

    it('shows and updates name, email, active and roles; a taken email is 422; unknown ids are 404', async () => {
      const u = await callerWith(svc.url, db, { email: 'upd@acc.test', roles: ['viewer'] });
      const shown = await as(admin, 'GET', `/api/admin/users/${u.id}`);
      expect(shown.body.data).toMatchObject({
        id: Number(u.id),
        email: 'upd@acc.test',
        roles: ['viewer'],
      });
      const r = await as(admin, 'PATCH', `/api/admin/users/${u.id}`, {
        name: 'Updated',
        email: 'Upd2@Acc.test',
        roles: ['editor'],
      });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({
        name: 'Updated',
        email: 'Upd2@Acc.test',
        roles: ['editor'],
      });
      expect(
        (await db.query(`SELECT email_key FROM kb_users WHERE id = $1`, [u.id]))[0].email_key,
      ).toBe('upd2@acc.test');
      expect(
        (await as(admin, 'PATCH', `/api/admin/users/${u.id}`, { email: 'ADMIN@acc.test' })).body
          .errors.email,
      ).toEqual(['The email has already been taken.']);
      expect(
        (await as(admin, 'PATCH', `/api/admin/users/${u.id}`, { roles: 'admin' })).status,
      ).toBe(422);
      for (const id of ['999999', 'abc', '0', '1e3', '99999999999999999999999']) {
        const missing = await as(admin, 'GET', `/api/admin/users/${id}`);
        expect([id, missing.status, missing.body]).toEqual([
          id,
          404,
          { error: 'not_found', message: 'User not found.' },
        ]);
      }
      expect((await as(admin, 'PATCH', '/api/admin/users/999999', { name: 'x' })).status).toBe(404);
      expect((await as(admin, 'POST', '/api/admin/users/999999/deactivate')).status).toBe(404);
    });
  });

  describe('role escalation', () => {
    it("keeps a platform administrator's account out of a tenant super-admin's reach (no email change, deactivation, roles or memberships)", async () => {
      const platform = await callerWith(svc.url, db, { email: 'platform-op@acc.test', roles: ['super-admin'] });
      await db.query(`INSERT INTO kb_user_permissions (tenant_id, user_id, permission) VALUES (NULL, $1, 'platform.admin')`, [platform.id]);
      const attempts: Array<[string, string, unknown?]> = [
        ['PATCH', `/api/admin/users/${platform.id}`, { email: 'attacker-mailbox@acc.test' }],
        ['PATCH', `/api/admin/users/${platform.id}`, { roles: ['viewer'] }],
        ['PATCH', `/api/admin/users/${platform.id}`, { active: false }],
        ['POST', `/api/admin/users/${platform.id}/deactivate`],
        ['POST', `/api/admin/users/${platform.id}/memberships`, { project_key: 'default' }],
      ];
      for (const [method, path, body] of attempts) {
        const r = await as(superAdmin, method, path, body);
        expect([method, path, r.status, r.body.error]).toEqual([method, path, 403, 'role_escalation_forbidden']);
      }
      const [row] = await db.query('SELECT email, active FROM kb_users WHERE id = $1', [platform.id]);
      expect(row).toEqual({ email: 'platform-op@acc.test', active: true });
      // Seen, not managed: the account still shows in the tenant's list and detail.
      expect((await as(superAdmin, 'GET', `/api/admin/users/${platform.id}`)).status).toBe(200);
      // Another platform administrator may manage it.
      const other = await callerWith(svc.url, db, { email: 'platform-op2@acc.test', roles: ['viewer'] });
      await db.query(`INSERT INTO kb_user_permissions (tenant_id, user_id, permission) VALUES (NULL, $1, 'platform.admin')`, [other.id]);
      await db.query(`INSERT INTO kb_user_roles (tenant_id, user_id, role) VALUES ('default', $1, 'admin')`, [other.id]);
      expect((await as(other, 'PATCH', `/api/admin/users/${platform.id}`, { name: 'Platform Operator' })).status).toBe(200);
    });

    it('an admin grants roles up to their own rank, never super-admin, nor one carrying a permission it lacks; a super-admin can', async () => {
      const u = await callerWith(svc.url, db, { email: 'esc1@acc.test', roles: ['viewer'] });
      expect(
        (
          await as(admin, 'PATCH', `/api/admin/users/${u.id}`, {
            roles: ['viewer', 'editor', 'admin'],
          })
        ).status,
      ).toBe(200);
      // dpo ranks below admin but carries pii.detokenize and pii.erase, which an admin does not hold: an admin who
      // could make an account a dpo could sign in as it and detokenize chat logs.
      const dpo = await as(admin, 'PATCH', `/api/admin/users/${u.id}`, { roles: ['viewer', 'dpo'] });
      expect(dpo).toMatchObject({ status: 403, body: { error: 'role_escalation_forbidden', message: 'You may not grant the dpo role: it carries pii.detokenize, pii.erase, which you do not hold.' } });
      const newDpo = await as(admin, 'POST', '/api/admin/users', { name: 'D', email: 'esc-dpo@acc.test', password: 'long enough', roles: ['dpo'] });
      expect(newDpo.status).toBe(403);
      expect((await db.query(`SELECT 1 FROM kb_users WHERE email_key = 'esc-dpo@acc.test'`)).length).toBe(0);
      expect((await as(superAdmin, 'PATCH', `/api/admin/users/${u.id}`, { roles: ['viewer', 'dpo'] })).status).toBe(200);
      // An admin may still take the role away (it outranks it) and grant what it holds.
      expect((await as(admin, 'PATCH', `/api/admin/users/${u.id}`, { roles: ['viewer', 'editor', 'admin'] })).status).toBe(200);
      const denied = await as(admin, 'PATCH', `/api/admin/users/${u.id}`, {
        roles: ['super-admin'],
      });
      expect(denied).toMatchObject({ status: 403, body: { error: 'role_escalation_forbidden' } });
      expect(
        (
          await as(admin, 'POST', '/api/admin/users', {
            name: 'S',
            email: 'esc-new@acc.test',
            password: 'long enough',
            roles: ['super-admin'],
          })
        ).status,
      ).toBe(403);
      expect(
        (await db.query(`SELECT 1 FROM kb_users WHERE email_key = 'esc-new@acc.test'`)).length,
      ).toBe(0);
      expect(
        (await as(superAdmin, 'PATCH', `/api/admin/users/${u.id}`, { roles: ['super-admin'] })).body
          .data.roles,
      ).toEqual(['super-admin']);
    });

    it('nobody raises their own roles; dropping your own roles is allowed', async () => {
      const self = await callerWith(svc.url, db, {
        email: 'self-admin@acc.test',
        roles: ['admin', 'editor'],
      });
      const raise = await as(self, 'PATCH', `/api/admin/users/${self.id}`, {
        roles: ['admin', 'editor', 'dpo'],
      });
      expect(raise).toMatchObject({
        status: 403,
        body: { error: 'role_escalation_forbidden', message: 'You may not raise your own roles.' },
      });
      expect(
        (
          await as(superAdmin, 'PATCH', `/api/admin/users/${superAdmin.id}`, {
            roles: ['super-admin', 'dpo'],
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await db.query(`SELECT role FROM kb_user_roles WHERE user_id = $1 ORDER BY role`, [
            self.id,
          ])
        ).map((r: { role: string }) => r.role),
      ).toEqual(['admin', 'editor']);
      const drop = await as(self, 'PATCH', `/api/admin/users/${self.id}`, {
        name: 'Still me',
        roles: ['admin'],
      });
      expect(drop.status).toBe(200);
      expect(drop.body.data).toMatchObject({ name: 'Still me', roles: ['admin'] });
    });

    it('users who outrank the caller are out of reach: no edit, deactivation or membership change', async () => {
      const boss = await callerWith(svc.url, db, {
        email: 'boss@acc.test',
        roles: ['super-admin'],
      });
      const [m] = await db.query(
        `INSERT INTO kb_memberships (tenant_id, user_id, project_key) VALUES ('default', $1, 'default') RETURNING id`,
        [boss.id],
      );
      for (const [method, path, body] of [
        ['PATCH', `/api/admin/users/${boss.id}`, { email: 'mine@acc.test' }],
        ['PATCH', `/api/admin/users/${boss.id}`, { roles: ['viewer'] }],
        ['POST', `/api/admin/users/${boss.id}/deactivate`, undefined],
        ['POST', `/api/admin/users/${boss.id}/memberships`, { project_key: 'default' }],
        ['PATCH', `/api/admin/memberships/${m.id}`, { scope: 'read' }],
        ['DELETE', `/api/admin/memberships/${m.id}`, undefined],
      ] as const) {
        expect([method, path, (await as(admin, method, path, body)).status]).toEqual([
          method,
          path,
          403,
        ]);
      }
      const [row] = await db.query(`SELECT email, active FROM kb_users WHERE id = $1`, [boss.id]);
      expect(row).toEqual({ email: 'boss@acc.test', active: true });
      expect(
        (await db.query(`SELECT scope FROM kb_memberships WHERE id = $1`, [m.id]))[0].scope,
      ).toBe('full');
      expect((await as(admin, 'GET', `/api/admin/users/${boss.id}`)).status).toBe(200); // reading is fine
    });

    it('nobody deactivates themselves', async () => {
      const r = await as(admin, 'POST', `/api/admin/users/${admin.id}/deactivate`);
      expect(r).toMatchObject({ status: 403, body: { error: 'cannot_deactivate_self' } });
      expect(
        (await as(admin, 'PATCH', `/api/admin/users/${admin.id}`, { active: false })).status,
      ).toBe(403);
      expect((await as(admin, 'GET', '/api/auth/me')).status).toBe(200);
    });
  });

  describe('deactivation', () => {
    it('sets active=false and ends every session and personal access token of the account', async () => {
      const u = await callerWith(svc.url, db, { email: 'leaver@acc.test', roles: ['editor'] });
      const session = await sessionOf(svc.url, u);
      expect((await session.call('GET', '/api/auth/me')).status).toBe(200);
      const r = await as(admin, 'POST', `/api/admin/users/${u.id}/deactivate`);
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ id: Number(u.id), active: false });
      expect(await db.query(`SELECT id FROM kb_sessions WHERE user_id = $1`, [u.id])).toEqual([]);
      expect(
        await db.query(`SELECT id FROM kb_personal_access_tokens WHERE user_id = $1`, [u.id]),
      ).toEqual([]);
      expect((await session.call('GET', '/api/auth/me')).status).toBe(401);
      expect((await client().call('GET', '/api/auth/me', { token: u.token })).status).toBe(401);
      expect(
        (
          await client().call('POST', '/api/auth/login', {
            body: { email: u.email, password: u.password },
          })
        ).status,
      ).toBe(422);
      expect(
        (
          await client().call('POST', '/api/auth/token', {
            body: { email: u.email, password: u.password },
          })
        ).status,
      ).toBe(422);

      // PATCH active=false does the same; active=true lets the account sign in again.
      const v = await callerWith(svc.url, db, { email: 'leaver2@acc.test', roles: ['viewer'] });
      expect(
        (await as(admin, 'PATCH', `/api/admin/users/${v.id}`, { active: false })).body.data.active,
      ).toBe(false);
      expect((await client().call('GET', '/api/auth/me', { token: v.token })).status).toBe(401);
      expect(
        (await as(admin, 'PATCH', `/api/admin/users/${v.id}`, { active: true })).body.data.active,
      ).toBe(true);
      expect(
        (
          await client().call('POST', '/api/auth/login', {
            body: { email: v.email, password: v.password },
          })
        ).status,
      ).toBe(200);
    });
  });

  describe('roles and permissions', () => {
    it('lists the seeded roles, most powerful first, with their permissions and holder counts', async () => {
      const r = await as(admin, 'GET', '/api/admin/roles');
      expect(r.body.data.map((x: { name: string }) => x.name)).toEqual([
        'super-admin',
        'admin',
        'dpo',
        'editor',
        'viewer',
      ]);
      const viewerRole = r.body.data.find((x: { name: string }) => x.name === 'viewer');
      expect(viewerRole).toEqual({
        name: 'viewer',
        rank: 1,
        description: '',
        permissions: ['kb.read.any', 'logs.view'],
        users_count: expect.any(Number),
      });
      const [{ count }] = await db.query(
        `SELECT count(*)::int AS count FROM kb_user_roles WHERE tenant_id = 'default' AND role = 'viewer'`,
      );
      expect(viewerRole.users_count).toBe(count);
    });

    it("changes a role's permissions in the active tenant only, with G1 and roles.manage; super-admin's set is fixed", async () => {
      const otherViewer = await callerWith(svc.url, db, { email: 'viewer@other-roles.test', roles: ['viewer'], tenant: 'roles-other' });
      const body = { permissions: ['kb.read.any', 'logs.view', 'insights.view'] };
      expect((await as(undefined, 'PATCH', '/api/admin/roles/viewer', body)).status).toBe(401);
      expect((await as(viewer, 'PATCH', '/api/admin/roles/viewer', body)).status).toBe(403);
      expect((await as(admin, 'PATCH', '/api/admin/roles/viewer', body)).status).toBe(403); // G1 without roles.manage
      const ok = await as(superAdmin, 'PATCH', '/api/admin/roles/viewer', body);
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({
        name: 'viewer',
        permissions: ['insights.view', 'kb.read.any', 'logs.view'],
      });
      expect((await as(viewer, 'GET', '/api/auth/me')).body.permissions).toContain('insights.view');
      // Another tenant keeps the seeded grants of the role.
      expect((await as(otherViewer, 'GET', '/api/auth/me')).body.permissions).toEqual(['kb.read.any', 'logs.view']);
      const listed = await as(superAdmin, 'GET', '/api/admin/permissions');
      expect(listed.body.data.find((p: { name: string }) => p.name === 'insights.view').roles).toContain('viewer');

      expect(
        (await as(superAdmin, 'PATCH', '/api/admin/roles/super-admin', { permissions: [] })).status,
      ).toBe(422);
      expect((await as(superAdmin, 'PATCH', '/api/admin/roles/root', body)).status).toBe(404);
      const bad = await as(superAdmin, 'PATCH', '/api/admin/roles/viewer', {
        permissions: ['platform.admin'],
      });
      expect(bad.status).toBe(422);
      expect(bad.body.errors.permissions).toBeDefined();
      expect(
        (
          await as(superAdmin, 'PATCH', '/api/admin/roles/viewer', {
            permissions: ['kb.read.any', 'logs.view'],
          })
        ).status,
      ).toBe(200);
      expect((await as(viewer, 'GET', '/api/auth/me')).body.permissions).toEqual([
        'kb.read.any',
        'logs.view',
      ]);
    });

    it('lists permissions to G1 only', async () => {
      const r = await as(admin, 'GET', '/api/admin/permissions');
      expect(r.status).toBe(200);
      // Tenant permissions only: the platform-level ones (platform.admin, and tenant.cross-access,
      // withdrawn from tenants) are not tenant roles' to list or grant.
      expect(r.body.data).toHaveLength(15);
      expect(r.body.data.find((p: { name: string }) => p.name === 'users.manage')).toEqual({
        name: 'users.manage',
        description: '',
        roles: ['admin', 'super-admin'],
      });
      expect(r.body.data.map((p: { name: string }) => p.name)).not.toContain('platform.admin');
      expect(r.body.data.map((p: { name: string }) => p.name)).not.toContain('tenant.cross-access');
      const dpo = await callerWith(svc.url, db, { email: 'dpo-view@acc.test', roles: ['dpo'] });
      expect((await as(dpo, 'GET', '/api/admin/permissions')).status).toBe(403);
      await db.query(
        `INSERT INTO kb_user_permissions (tenant_id, user_id, permission) VALUES ('default', $1, 'permissions.view')`,
        [dpo.id],
      );
      // permissions.view held directly does not open a G1 route.
      expect((await as(dpo, 'GET', '/api/admin/permissions')).status).toBe(403);
      expect((await as(dpo, 'GET', '/api/admin/roles')).status).toBe(403);
    });
  });

  describe('memberships', () => {
    it('creates, lists, shows, updates and deletes project memberships; unknown projects and duplicates are 422', async () => {
      await db.query(
        `INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ('default', 'handbook', 'Handbook'), ('default', 'runbooks', 'Runbooks')`,
      );
      const u = await callerWith(svc.url, db, { email: 'member@acc.test', roles: ['viewer'] });
      const created = await as(admin, 'POST', `/api/admin/users/${u.id}/memberships`, {
        project_key: 'handbook',
        role: 'owner',
      });
      expect(created.status).toBe(201);
      expect(created.body.data).toEqual({
        id: expect.any(Number),
        user_id: Number(u.id),
        tenant_id: 'default',
        project_key: 'handbook',
        role: 'owner',
        scope: 'full',
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(
        (
          await as(admin, 'POST', `/api/admin/users/${u.id}/memberships`, {
            project_key: 'runbooks',
            scope: 'read',
          })
        ).body.data,
      ).toMatchObject({ role: 'member', scope: 'read' });
      const unknown = await as(admin, 'POST', `/api/admin/users/${u.id}/memberships`, {
        project_key: 'ghost',
      });
      expect(unknown).toMatchObject({
        status: 422,
        body: { errors: { project_key: ['The selected project key is invalid.'] } },
      });
      expect((await db.query(`SELECT 1 FROM kb_projects WHERE project_key = 'ghost'`)).length).toBe(
        0,
      );
      expect(
        (
          await as(admin, 'POST', `/api/admin/users/${u.id}/memberships`, {
            project_key: 'handbook',
          })
        ).body.errors.project_key,
      ).toEqual(['The user is already a member of this project.']);
      expect(
        (
          await as(admin, 'POST', `/api/admin/users/${u.id}/memberships`, {
            project_key: 'handbook',
            role: 'boss',
            scope: 'all',
          })
        ).body.errors,
      ).toMatchObject({ role: expect.any(Array), scope: expect.any(Array) });

      const list = await as(admin, 'GET', `/api/admin/users/${u.id}/memberships?per_page=1`);
      expect(list.body).toMatchObject({ current_page: 1, per_page: 1, total: 2, last_page: 2 });
      expect(list.body.data[0].project_key).toBe('handbook');
      expect(
        (await as(admin, 'GET', `/api/admin/users/${u.id}/memberships?search=RUN`)).body.data.map(
          (m: { project_key: string }) => m.project_key,
        ),
      ).toEqual(['runbooks']);
      const me = await as(u, 'GET', '/api/auth/me');
      expect(me.body.projects).toEqual([
        { project_key: 'handbook', role: 'owner', scope: 'full' },
        { project_key: 'runbooks', role: 'member', scope: 'read' },
      ]);

      const id = created.body.data.id;
      expect((await as(admin, 'GET', `/api/admin/memberships/${id}`)).body.data.project_key).toBe(
        'handbook',
      );
      expect(
        (
          await as(admin, 'PATCH', `/api/admin/memberships/${id}`, {
            role: 'viewer',
            scope: 'read',
          })
        ).body.data,
      ).toMatchObject({ role: 'viewer', scope: 'read' });
      expect(
        (await as(admin, 'PATCH', `/api/admin/memberships/${id}`, { project_key: 'runbooks' }))
          .status,
      ).toBe(422);
      // null is not "keep" nor "default": refused by name, nothing changes.
      const nulls = await as(admin, 'PATCH', `/api/admin/memberships/${id}`, {
        role: null,
        scope: null,
      });
      expect([nulls.status, Object.keys(nulls.body.errors).sort()]).toEqual([
        422,
        ['role', 'scope'],
      ]);
      expect((await as(admin, 'GET', `/api/admin/memberships/${id}`)).body.data).toMatchObject({
        role: 'viewer',
        scope: 'read',
      });
      expect((await as(admin, 'DELETE', `/api/admin/memberships/${id}`)).status).toBe(204);
      expect((await as(admin, 'GET', `/api/admin/memberships/${id}`)).body).toEqual({
        error: 'not_found',
        message: 'Membership not found.',
      });
      expect((await as(admin, 'DELETE', `/api/admin/memberships/${id}`)).status).toBe(404);
      expect((await as(admin, 'GET', '/api/admin/users/999999/memberships')).status).toBe(404);
    });
  });
});
