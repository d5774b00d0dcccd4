import { get } from 'node:http';
import { ConfigService } from '@nestjs/config';
import { platformHttpLogger } from '@platform/observability';
import { RunningService } from '@platform/testing';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { TOKEN_IDENTITY_TTL_MS, TokenIdentityCache } from '../src/app/auth/token-identity-cache';
import { KbConfig } from '../src/config/kb-config';
import { Caller, callerWith } from './admin-support';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

const ME = '/api/auth/me';
/** The same request on the full Nest route: the lean path declines a query string. */
const ME_VIA_NEST = '/api/auth/me?via=nest';

/** A GET's status over node:http (fetch would add Cache-Control: no-cache to a conditional request). */
function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

/** Polls until `check` holds; returns how long it took (fails past `withinMs`). */
async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`condition not met within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

describe('kb-api: personal access tokens on the lean path, with the token identity cache', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let admin: Caller;
  let platform: Caller;
  const client = () => new KbClient(svc.url);
  const me = (token: string, path = ME, headers: Record<string, string> = {}) =>
    client().call('GET', path, { token, headers });
  const as = (caller: Caller, method: string, path: string, body?: unknown) =>
    client().call(method, path, { token: caller.token, body });
  /** Uses the token twice so its identity and profile are in the cache before a change. */
  const warm = async (token: string) => {
    expect((await me(token)).status).toBe(200);
    expect((await me(token)).status).toBe(200);
  };

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    admin = await callerWith(svc.url, db, { email: 'cache-admin@example.com', roles: ['admin'] });
    platform = await callerWith(svc.url, db, {
      email: 'cache-platform@example.com',
      roles: ['super-admin'],
      platformAdmin: true,
    });
  });
  afterAll(() => stop());

  it('answers as the Nest route does: body, status, content type, ETag, and errors in the area shape', async () => {
    const user = await callerWith(svc.url, db, { email: 'same@example.com', roles: ['editor'] });
    await createUser(db, { email: 'elsewhere@other.test', tenant: 'other' });
    const cases: Array<[string, Record<string, string>]> = [
      [user.token, {}],
      [user.token, { 'x-tenant-id': 'other' }],
      [user.token, { 'x-tenant-id': 'Not A Tenant!' }],
      [user.token, { 'x-tenant-id': 'default' }],
      ['kbp_notarealtokenatallxxxxxxxxxxxxxxx', {}],
      ['kbp_short', {}],
    ];
    for (const [token, headers] of cases) {
      const lean = await me(token, ME, headers);
      const nest = await me(token, ME_VIA_NEST, headers);
      expect({ status: lean.status, body: lean.body }).toEqual({
        status: nest.status,
        body: nest.body,
      });
      expect(lean.headers.get('content-type')).toBe(nest.headers.get('content-type'));
      for (const header of ['etag', 'content-length', 'cache-control', 'x-powered-by']) {
        expect([header, lean.headers.get(header)]).toEqual([header, nest.headers.get(header)]);
      }
    }
    const ok = await me(user.token);
    expect(ok.body).toMatchObject({
      tenant_id: 'default',
      roles: ['editor'],
      auth: { kind: 'token' },
    });
    expect((await me(user.token, ME, { 'x-tenant-id': 'other' })).body).toMatchObject({
      error: 'tenant_forbidden',
    });
  });

  it('keeps the request id, the duration metric and conditional GET of other routes', async () => {
    const user = await callerWith(svc.url, db, { email: 'observed@example.com' });
    const r = await me(user.token, ME, { 'x-request-id': 'kb-me-req-1' });
    expect(r.headers.get('x-request-id')).toBe('kb-me-req-1');
    expect((await me(user.token)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const conditional = {
      authorization: `Bearer ${user.token}`,
      'if-none-match': r.headers.get('etag')!,
    };
    expect(await statusOf(svc.url + ME, conditional)).toBe(304);
    expect(await statusOf(svc.url + ME_VIA_NEST, conditional)).toBe(304);
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(metrics).toMatch(
      /http_server_request_duration_seconds_count\{[^}]*method="GET"[^}]*route="\/api\/auth\/me"[^}]*status="200"[^}]*\} [1-9]/,
    );
  });

  it('writes the access line of the request, with its request id and status', async () => {
    const user = await callerWith(svc.url, db, { email: 'logged@example.com' });
    const logger = platformHttpLogger()!;
    const info = jest.spyOn(logger, 'info');
    try {
      await me(user.token, ME, { 'x-request-id': 'kb-me-log-1' });
      await new Promise((r) => setImmediate(r));
      const lines = info.mock.calls.filter(
        ([line]) => (line as { req?: { id?: string } }).req?.id === 'kb-me-log-1',
      );
      expect(lines).toHaveLength(1);
      const [line, message] = lines[0] as unknown as [
        { req: { method: string; url: string }; res: { statusCode: number }; responseTime: number },
        string,
      ];
      expect(message).toBe('request completed');
      expect(line).toMatchObject({ req: { method: 'GET', url: ME }, res: { statusCode: 200 } });
      expect(typeof line.responseTime).toBe('number');
    } finally {
      info.mockRestore();
    }
  });

  describe('a change made by this process applies to the very next request', () => {
    it('token/revoke', async () => {
      const user = await callerWith(svc.url, db, { email: 'revoke-now@example.com' });
      await warm(user.token);
      expect(
        (await client().call('POST', '/api/auth/token/revoke', { token: user.token })).status,
      ).toBe(204);
      expect((await me(user.token)).status).toBe(401);
    });

    it('password reset', async () => {
      const user = await callerWith(svc.url, db, { email: 'reset-now@example.com' });
      await warm(user.token);
      await client().call('POST', '/api/auth/forgot-password', { body: { email: user.email } });
      const [mail] = await db.query(`SELECT body FROM kb_mail_outbox WHERE recipient = $1`, [
        user.email,
      ]);
      const resetToken = decodeURIComponent(/token=([^&\s]+)/.exec(mail.body)![1]);
      const body = {
        token: resetToken,
        email: user.email,
        password: 'new password 1',
        password_confirmation: 'new password 1',
      };
      expect((await client().call('POST', '/api/auth/reset-password', { body })).status).toBe(204);
      expect((await me(user.token)).status).toBe(401);
    });

    it('deactivation, by PATCH and by the deactivate action', async () => {
      const a = await callerWith(svc.url, db, {
        email: 'deactivate-a@example.com',
        roles: ['viewer'],
      });
      const b = await callerWith(svc.url, db, {
        email: 'deactivate-b@example.com',
        roles: ['viewer'],
      });
      await warm(a.token);
      await warm(b.token);
      expect((await as(admin, 'PATCH', `/api/admin/users/${a.id}`, { active: false })).status).toBe(
        200,
      );
      expect((await me(a.token)).status).toBe(401);
      expect((await as(admin, 'POST', `/api/admin/users/${b.id}/deactivate`)).status).toBe(200);
      expect((await me(b.token)).status).toBe(401);
    });

    it('a role change, a membership change and a change of a role’s permissions', async () => {
      const user = await callerWith(svc.url, db, {
        email: 'roles-now@example.com',
        roles: ['viewer'],
      });
      await warm(user.token);
      expect(
        (await as(admin, 'PATCH', `/api/admin/users/${user.id}`, { roles: ['editor'] })).status,
      ).toBe(200);
      expect((await me(user.token)).body.roles).toEqual(['editor']);

      const added = await as(admin, 'POST', `/api/admin/users/${user.id}/memberships`, {
        project_key: 'default',
      });
      expect(added.status).toBe(201);
      expect((await me(user.token)).body.projects).toEqual([
        expect.objectContaining({ project_key: 'default' }),
      ]);
      expect(
        (await as(admin, 'DELETE', `/api/admin/memberships/${added.body.data.id}`)).status,
      ).toBe(204);
      expect((await me(user.token)).body.projects).toEqual([]);

      const before = (await me(user.token)).body.permissions as string[];
      const granted = [...new Set([...before, 'insights.view'])];
      expect(
        (await as(platform, 'PATCH', '/api/admin/roles/editor', { permissions: granted })).status,
      ).toBe(200);
      expect((await me(user.token)).body.permissions).toContain('insights.view');
      expect(
        (await as(platform, 'PATCH', '/api/admin/roles/editor', { permissions: before })).status,
      ).toBe(200);
      expect((await me(user.token)).body.permissions).toEqual([...before].sort());
    });

    it('a suspended tenant is refused at once, whoever suspended it (the status is read for every request)', async () => {
      const user = await callerWith(svc.url, db, {
        email: 'worker@suspend.test',
        tenant: 'suspend-me',
        roles: ['viewer'],
      });
      await warm(user.token);
      expect(
        (await as(platform, 'POST', '/api/system-admin/tenants/suspend-me/suspend')).status,
      ).toBe(200);
      expect(await me(user.token)).toMatchObject({
        status: 403,
        body: { error: 'tenant_suspended' },
      });
      await as(platform, 'POST', '/api/system-admin/tenants/suspend-me/resume');
      await warm(user.token);
      // Straight in the database, as another replica would leave it.
      await db.query(`UPDATE kb_tenants SET status = 'suspended' WHERE id = 'suspend-me'`);
      expect(await me(user.token)).toMatchObject({
        status: 403,
        body: { error: 'tenant_suspended' },
      });
      await db.query(`UPDATE kb_tenants SET status = 'active' WHERE id = 'suspend-me'`);
    });
  });

  it('an expired token never authenticates, even while its identity is cached', async () => {
    const user = await callerWith(svc.url, db, { email: 'expiring@example.com' });
    await db.query(
      `UPDATE kb_personal_access_tokens SET expires_at = now() + interval '1500 milliseconds' WHERE user_id = $1`,
      [user.id],
    );
    const [{ expires_at }] = await db.query(
      `SELECT expires_at FROM kb_personal_access_tokens WHERE user_id = $1`,
      [user.id],
    );
    await warm(user.token);
    await new Promise((r) =>
      setTimeout(r, Math.max(0, new Date(expires_at).getTime() - Date.now()) + 50),
    );
    expect((await me(user.token)).status).toBe(401);
    expect((await me(user.token, ME_VIA_NEST)).status).toBe(401);
  });

  describe('a change made by another replica', () => {
    let redis: Redis;
    let otherReplica: TokenIdentityCache;

    beforeAll(() => {
      redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
      // What the other replica runs: the same cache class on the same Redis prefix.
      otherReplica = new TokenIdentityCache(
        KbConfig.of(new ConfigService({ REDIS_PREFIX: process.env.REDIS_PREFIX })),
        redis,
      );
    });
    afterAll(async () => {
      await otherReplica.onApplicationShutdown();
      await redis.quit();
    });

    it('applies here as soon as its invalidation arrives over Redis', async () => {
      const user = await callerWith(svc.url, db, { email: 'revoked-elsewhere@example.com' });
      await warm(user.token);
      await db.query('DELETE FROM kb_personal_access_tokens WHERE user_id = $1', [user.id]);
      await otherReplica.invalidateUser(user.id);
      await eventually(async () => (await me(user.token)).status === 401, 1000);
    });

    it('applies here within TOKEN_IDENTITY_TTL_MS even if the message is lost', async () => {
      const user = await callerWith(svc.url, db, {
        email: 'lost-message@example.com',
        roles: ['viewer'],
      });
      await warm(user.token);
      await db.query(`DELETE FROM kb_user_roles WHERE user_id = $1`, [user.id]);
      await db.query('DELETE FROM kb_personal_access_tokens WHERE user_id = $1', [user.id]);
      await eventually(
        async () => (await me(user.token)).status === 401,
        TOKEN_IDENTITY_TTL_MS + 1000,
      );
    });
  });
});
