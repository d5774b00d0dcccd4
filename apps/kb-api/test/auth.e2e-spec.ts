import { Secret, TOTP } from 'otpauth';
import { Clock } from '@platform/runtime';
import { RunningService, TestJwksIssuer } from '@platform/testing';
import { DataSource } from 'typeorm';
import { createUser, KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

describe('kb-api /api/auth', () => {
  let svc: RunningService;
  let db: DataSource;
  let issuer: TestJwksIssuer;
  let stop: () => Promise<void>;
  const client = () => new KbClient(svc.url);

  beforeAll(async () => {
    ({ svc, db, issuer, stop } = await startKb({ KB_LOGIN_MAX_ATTEMPTS: '5' }, { probes: true }));
  });
  afterAll(() => stop());

  describe('session login', () => {
    it('signs in with httpOnly, SameSite session and readable XSRF cookies, and answers me', async () => {
      await createUser(db, { email: 'Ann@Example.com', name: 'Ann', roles: ['editor'] });
      const c = client();
      const login = await c.call('POST', '/api/auth/login', { body: { email: '  ann@EXAMPLE.com ', password: 'correct horse battery staple' } });
      expect(login.status).toBe(200);
      expect(login.body).toEqual({ user: { id: expect.any(Number), name: 'Ann', email: 'Ann@Example.com' }, abilities: [] });
      const session = login.setCookies.find((s) => s.startsWith('kb_session='))!;
      expect(session).toMatch(/HttpOnly/i);
      expect(session).toMatch(/SameSite=Lax/i);
      expect(login.setCookies.find((s) => s.startsWith('XSRF-TOKEN='))).not.toMatch(/HttpOnly/i);

      const me = await c.call('GET', '/api/auth/me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({
        user: { name: 'Ann', email: 'Ann@Example.com', email_verified_at: null },
        tenant_id: 'default',
        roles: ['editor'],
        permissions: expect.arrayContaining(['kb.read.any', 'kb.edit.any']),
        projects: [],
        preferences: { theme: expect.any(String) },
        two_factor_enabled: false,
      });
    });

    it('gives the same 422 for a wrong password, an unknown email and an inactive account', async () => {
      await createUser(db, { email: 'gone@example.com', active: false });
      for (const body of [
        { email: 'ann@example.com', password: 'wrong' },
        { email: 'nobody@example.com', password: 'whatever' },
        { email: 'gone@example.com', password: 'correct horse battery staple' },
      ]) {
        const r = await client().call('POST', '/api/auth/login', { body });
        expect(r.status).toBe(422);
        expect(r.body).toEqual({ message: 'These credentials do not match our records.', errors: { email: ['These credentials do not match our records.'] } });
      }
      const invalid = await client().call('POST', '/api/auth/login', { body: { email: 'not-an-email', password: '' } });
      expect(invalid.status).toBe(422);
      expect(Object.keys(invalid.body.errors).sort()).toEqual(['email', 'password']);
    });

    it('throttles after five failures per email and IP with 429 in the validation shape', async () => {
      await createUser(db, { email: 'locked@example.com' });
      for (let i = 0; i < 5; i++) expect((await client().call('POST', '/api/auth/login', { body: { email: 'locked@example.com', password: 'nope' } })).status).toBe(422);
      const sixth = await client().call('POST', '/api/auth/login', { body: { email: 'locked@example.com', password: 'correct horse battery staple' } });
      expect(sixth.status).toBe(429);
      expect(sixth.body.errors.email[0]).toMatch(/Too many attempts/);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('refuses an unsafe request without the CSRF header, and logout ends the session', async () => {
      await createUser(db, { email: 'csrf@example.com' });
      const c = client();
      await c.call('POST', '/api/auth/login', { body: { email: 'csrf@example.com', password: 'correct horse battery staple' } });
      const forged = await c.call('POST', '/api/kb/probe/write', { csrf: false });
      expect(forged.status).toBe(403);
      expect(forged.body.error).toBe('csrf_token_mismatch');
      const wrong = await c.call('POST', '/api/kb/probe/write', { csrf: false, headers: { 'x-xsrf-token': 'guess' } });
      expect(wrong.status).toBe(403);
      expect((await c.call('POST', '/api/kb/probe/write')).status).toBe(201);
      expect((await c.call('GET', '/api/auth/me', { csrf: false })).status).toBe(200); // safe methods need no token
      expect((await c.call('POST', '/api/auth/logout')).status).toBe(204);
      expect((await c.call('GET', '/api/auth/me')).status).toBe(401);
    });

    it('answers 401 to guests in the area shape', async () => {
      const r = await client().call('GET', '/api/auth/me');
      expect(r).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });
      expect((await client().call('GET', '/api/auth/me', { token: 'kbp_notarealtokenatallxxxxxxxxxxxxxxx' })).status).toBe(401);
      expect((await client().call('GET', '/api/auth/me', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    });
  });

  describe('personal access tokens', () => {
    it('issues a 30-day Bearer token with exactly kb:read and kb:chat, shown once and stored hashed', async () => {
      await createUser(db, { email: 'Tok@Example.com', name: 'Tok' });
      const r = await client().call('POST', '/api/auth/token', { body: { email: ' TOK@example.com', password: 'correct horse battery staple', device_name: 'laptop' } });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ token: expect.stringMatching(/^kbp_[0-9A-Za-z]{43}$/), token_type: 'Bearer', user: { id: expect.any(Number), name: 'Tok', email: 'Tok@Example.com' } });
      expect(r.headers.get('ratelimit-policy')).toMatch(/^"token";q=5;w=\d+$/);
      expect(r.headers.get('ratelimit')).toMatch(/^"token";r=5;t=\d+$/);
      const [row] = await db.query(`SELECT name, abilities, token_hash, expires_at - created_at AS lifetime FROM kb_personal_access_tokens ORDER BY id DESC LIMIT 1`);
      expect(row).toMatchObject({ name: 'laptop', abilities: ['kb:read', 'kb:chat'], lifetime: { days: 30 } });
      expect(row.token_hash).not.toContain(r.body.token.slice(4));
      const [unused] = await db.query(`SELECT last_used_at FROM kb_personal_access_tokens ORDER BY id DESC LIMIT 1`);
      expect(unused.last_used_at).toBeNull();
      const me = await client().call('GET', '/api/auth/me', { token: r.body.token });
      expect(me.body).toMatchObject({ user: { email: 'Tok@Example.com' }, auth: { kind: 'token', abilities: ['kb:read', 'kb:chat'] } });
      // Use is recorded off the request path (for access reviews): it lands right after the answer.
      let used: { last_used_at: Date | null } = { last_used_at: null };
      for (let i = 0; i < 40 && !used.last_used_at; i++) {
        await new Promise((done) => setTimeout(done, 50));
        [used] = await db.query(`SELECT last_used_at FROM kb_personal_access_tokens ORDER BY id DESC LIMIT 1`);
      }
      expect(used.last_used_at).toBeInstanceOf(Date);
    });

    it('validates device_name, answers 422 on wrong credentials and 429 after five failures', async () => {
      await createUser(db, { email: 'tok2@example.com' });
      const long = await client().call('POST', '/api/auth/token', { body: { email: 'tok2@example.com', password: 'x', device_name: 'd'.repeat(121) } });
      expect(long.status).toBe(422);
      expect(long.body.errors.device_name).toBeDefined();
      expect((await client().call('POST', '/api/auth/token', { body: { password: 'x' } })).status).toBe(422);
      for (let i = 0; i < 5; i++) {
        const failed = await client().call('POST', '/api/auth/token', { body: { email: 'tok2@example.com', password: 'bad' } });
        expect(failed.status).toBe(422);
        // The quota is failed attempts: each answer says how many are left in the window.
        expect(failed.headers.get('ratelimit-policy')).toMatch(/^"token";q=5;w=\d+$/);
        expect(failed.headers.get('ratelimit')).toMatch(new RegExp(`^"token";r=${4 - i};t=\\d+$`));
      }
      const blocked = await client().call('POST', '/api/auth/token', { body: { email: 'tok2@example.com', password: 'correct horse battery staple' } });
      expect(blocked.status).toBe(429);
      expect(blocked.body.errors.email).toBeDefined();
      expect(blocked.headers.get('ratelimit-policy')).toMatch(/^"token";q=5;w=\d+$/);
      expect(blocked.headers.get('ratelimit')).toMatch(/^"token";r=0;t=\d+$/);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('revokes the calling token (204, then 401); a cookie session may not use the route', async () => {
      await createUser(db, { email: 'rev@example.com' });
      const { body } = await client().call('POST', '/api/auth/token', { body: { email: 'rev@example.com', password: 'correct horse battery staple' } });
      expect((await client().call('POST', '/api/auth/token/revoke', { token: body.token })).status).toBe(204);
      expect((await client().call('GET', '/api/auth/me', { token: body.token })).status).toBe(401);
      const c = client();
      await c.call('POST', '/api/auth/login', { body: { email: 'rev@example.com', password: 'correct horse battery staple' } });
      expect((await c.call('POST', '/api/auth/token/revoke')).status).toBe(403);
    });

    it('stops working after 30 days', async () => {
      await createUser(db, { email: 'old@example.com' });
      const { body } = await client().call('POST', '/api/auth/token', { body: { email: 'old@example.com', password: 'correct horse battery staple' } });
      await db.query(`UPDATE kb_personal_access_tokens SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM kb_users WHERE email_key = 'old@example.com')`);
      expect((await client().call('GET', '/api/auth/me', { token: body.token })).status).toBe(401);
    });

    it('stops working once the clock passes its 30 days (the clock moves, the row stays as issued)', async () => {
      await createUser(db, { email: 'aging@example.com' });
      const { body } = await client().call('POST', '/api/auth/token', { body: { email: 'aging@example.com', password: 'correct horse battery staple' } });
      const clock = svc.app.get(Clock);
      const past = 30 * 86_400_000 + 1_000;
      clock.advance(past);
      try {
        expect((await client().call('GET', '/api/auth/me', { token: body.token })).status).toBe(401);
      } finally {
        clock.advance(-past);
      }
      expect((await client().call('GET', '/api/auth/me', { token: body.token })).status).toBe(200);
    });
  });

  describe('gates', () => {
    it('token.ability constrains bearer tokens only: 403 token_ability_forbidden; cookie sessions pass', async () => {
      const iamReadOnly = await issuer.mint({ scope: 'kb:read', extra: { tenant_id: 'default' } });
      expect((await client().call('GET', '/api/kb/probe/read', { token: iamReadOnly })).status).toBe(200);
      const denied = await client().call('POST', '/api/kb/probe/chat', { token: iamReadOnly });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ error: 'token_ability_forbidden', message: expect.any(String) });
      await createUser(db, { email: 'cookie@example.com' });
      const c = client();
      await c.call('POST', '/api/auth/login', { body: { email: 'cookie@example.com', password: 'correct horse battery staple' } });
      expect((await c.call('POST', '/api/kb/probe/chat')).status).toBe(201);
      const { body } = await client().call('POST', '/api/auth/token', { body: { email: 'cookie@example.com', password: 'correct horse battery staple' } });
      expect((await client().call('POST', '/api/kb/probe/chat', { token: body.token })).status).toBe(201);
      // An iam token is an integration, not a user.
      expect((await client().call('GET', '/api/auth/me', { token: iamReadOnly })).status).toBe(403);
    });

    it('refuses an iam token minted for another service or the MCP server alone (no kb: scope), even on routes gated on sign-in alone', async () => {
      for (const scope of ['evidence:review', 'guardrails:admin', 'mcp:read mcp:tools:propose', 'openid profile', '']) {
        const foreign = await issuer.mint({ scope, extra: { tenant_id: 'default' } });
        const ingest = await client().call('POST', '/api/kb/ingest', { token: foreign, body: { documents: [{ source_path: 'poison.md', content: '# Poison' }] } });
        expect([scope, ingest.status, ingest.body.error]).toEqual([scope, 403, 'token_ability_forbidden']);
        expect([scope, (await client().call('GET', '/api/kb/probe/read', { token: foreign })).status]).toEqual([scope, 403]);
      }
      expect(await db.query(`SELECT 1 FROM kb_documents WHERE source_path = 'poison.md'`)).toEqual([]);
    });

    it('G1 needs admin or super-admin; capabilities follow the seeded roles; platform.admin is global only', async () => {
      const tokenOf = async (email: string, roles: string[], platformAdmin = false) => {
        await createUser(db, { email, roles, platformAdmin });
        return (await client().call('POST', '/api/auth/token', { body: { email, password: 'correct horse battery staple' } })).body.token as string;
      };
      const viewer = await tokenOf('viewer@example.com', ['viewer']);
      const admin = await tokenOf('admin@example.com', ['admin']);
      const superAdmin = await tokenOf('super@example.com', ['super-admin']);
      const platform = await tokenOf('platform@example.com', ['viewer'], true);
      const status = async (path: string, token: string) => (await client().call('GET', `/api/kb/probe/${path}`, { token })).status;
      expect([await status('g1', viewer), await status('g1', admin), await status('g1', superAdmin)]).toEqual([403, 200, 200]);
      expect([await status('widget-keys', admin), await status('widget-keys', superAdmin)]).toEqual([403, 200]);
      expect([await status('platform', superAdmin), await status('platform', platform)]).toEqual([403, 200]);
      const denied = await client().call('GET', '/api/kb/probe/g1', { token: viewer });
      expect(denied.body).toEqual({ message: 'This action is unauthorized.' });
    });
  });

  describe('tenancy', () => {
    it('resolves X-Tenant-Id, refuses malformed (400) and foreign (403) tenants, allows members and platform admins', async () => {
      await db.query(`INSERT INTO kb_tenants (id, name) VALUES ('acme', 'Acme'), ('globex', 'Globex'), ('frozen', 'Frozen')`);
      await db.query(`UPDATE kb_tenants SET status = 'suspended' WHERE id = 'frozen'`);
      await createUser(db, { email: 'bob@acme.test', tenant: 'acme', roles: ['viewer'] });
      const bob = (await client().call('POST', '/api/auth/token', { body: { email: 'bob@acme.test', password: 'correct horse battery staple' } })).body.token;
      const whoami = (tenant?: string, token = bob) => client().call('GET', '/api/kb/probe/whoami', { token, headers: tenant ? { 'x-tenant-id': tenant } : {} });
      expect((await whoami()).body.tenantId).toBe('acme');
      expect((await whoami('Bad Tenant!')).body).toMatchObject({ error: 'invalid_tenant_id' });
      expect((await whoami('Bad Tenant!')).status).toBe(400);
      expect((await whoami('globex')).body).toMatchObject({ error: 'tenant_forbidden' });
      expect((await whoami('nope')).status).toBe(403);

      await db.query(`INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ('globex', 'docs', 'Docs')`);
      await db.query(`INSERT INTO kb_memberships (tenant_id, user_id, project_key) SELECT 'globex', id, 'docs' FROM kb_users WHERE email_key = 'bob@acme.test'`);
      const inGlobex = await whoami('globex');
      expect(inGlobex.status).toBe(200);
      expect(inGlobex.body).toMatchObject({ tenantId: 'globex', roles: [] });

      await createUser(db, { email: 'ops@acme.test', tenant: 'acme', roles: ['super-admin'] });
      const ops = (await client().call('POST', '/api/auth/token', { body: { email: 'ops@acme.test', password: 'correct horse battery staple' } })).body.token;
      // A tenant super-admin holds tenant permissions only: another tenant stays closed to them.
      expect((await whoami('globex', ops)).body).toMatchObject({ error: 'tenant_forbidden' });
      // Entering another tenant is platform.admin's (audited in kb_cross_tenant_audit).
      await createUser(db, { email: 'platform@acme.test', tenant: 'acme', roles: ['viewer'], platformAdmin: true });
      const platform = (await client().call('POST', '/api/auth/token', { body: { email: 'platform@acme.test', password: 'correct horse battery staple' } })).body.token;
      expect((await whoami('globex', platform)).body).toMatchObject({ tenantId: 'globex', roles: [] });
      expect((await whoami('frozen', platform)).body).toMatchObject({ error: 'tenant_suspended' });
    });
  });

  describe('password reset', () => {
    it('always answers 204, mails a single-use link, and a reset ends every session and token', async () => {
      await createUser(db, { email: 'reset@example.com' });
      expect((await client().call('POST', '/api/auth/forgot-password', { body: { email: 'unknown@example.com' } })).status).toBe(204);
      expect((await client().call('POST', '/api/auth/forgot-password', { body: { email: 'not an email' } })).status).toBe(422);
      const session = client();
      await session.call('POST', '/api/auth/login', { body: { email: 'reset@example.com', password: 'correct horse battery staple' } });
      const pat = (await client().call('POST', '/api/auth/token', { body: { email: 'reset@example.com', password: 'correct horse battery staple' } })).body.token;
      expect((await client().call('POST', '/api/auth/forgot-password', { body: { email: 'Reset@Example.com' } })).status).toBe(204);
      const [mail] = await db.query(`SELECT recipient, subject, body FROM kb_mail_outbox WHERE recipient = 'reset@example.com'`);
      expect(mail.subject).toBe('Reset your password');
      const token = decodeURIComponent(/token=([^&\s]+)/.exec(mail.body)![1]);

      const mismatch = await client().call('POST', '/api/auth/reset-password', { body: { token, email: 'reset@example.com', password: 'new password 1', password_confirmation: 'other' } });
      expect(mismatch.status).toBe(422);
      expect(mismatch.body.errors.password).toBeDefined();
      expect((await client().call('POST', '/api/auth/reset-password', { body: { token, email: 'reset@example.com', password: 'short', password_confirmation: 'short' } })).status).toBe(422);
      const ok = await client().call('POST', '/api/auth/reset-password', { body: { token, email: 'reset@example.com', password: 'new password 1', password_confirmation: 'new password 1' } });
      expect(ok.status).toBe(204);
      const reused = await client().call('POST', '/api/auth/reset-password', { body: { token, email: 'reset@example.com', password: 'new password 2', password_confirmation: 'new password 2' } });
      expect(reused.status).toBe(422);
      expect(reused.body.errors.email).toBeDefined();

      expect((await session.call('GET', '/api/auth/me')).status).toBe(401);
      expect((await client().call('GET', '/api/auth/me', { token: pat })).status).toBe(401);
      expect((await client().call('POST', '/api/auth/login', { body: { email: 'reset@example.com', password: 'correct horse battery staple' } })).status).toBe(422);
      expect((await client().call('POST', '/api/auth/login', { body: { email: 'reset@example.com', password: 'new password 1' } })).status).toBe(200);
    });

    it('throttles forgot-password per IP (throttle:forgot) with 429', async () => {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await client().call('POST', '/api/auth/forgot-password', { body: { email: `x${i}@example.com` } })).status);
      // The earlier test used some of this minute's allowance from the same IP.
      expect(statuses).toContain(429);
      expect(statuses.indexOf(429)).toBeLessThanOrEqual(3);
    });
  });

  describe('two-factor authentication', () => {
    it('enrols with a TOTP secret and recovery codes, then login asks for a code; codes are single use', async () => {
      await createUser(db, { email: 'tfa@example.com' });
      const c = client();
      await c.call('POST', '/api/auth/login', { body: { email: 'tfa@example.com', password: 'correct horse battery staple' } });
      const enrol = await c.call('POST', '/api/auth/2fa/enable');
      expect(enrol.status).toBe(201);
      expect(enrol.body).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauth_url: expect.stringMatching(/^otpauth:\/\/totp\//), recovery_codes: expect.any(Array) });
      expect(enrol.body.recovery_codes).toHaveLength(8);
      const totp = new TOTP({ secret: Secret.fromBase32(enrol.body.secret), digits: 6, period: 30, algorithm: 'SHA1' });
      // Not yet confirmed: login still works without a code.
      expect((await client().call('POST', '/api/auth/login', { body: { email: 'tfa@example.com', password: 'correct horse battery staple' } })).status).toBe(200);
      expect((await c.call('POST', '/api/auth/2fa/verify', { body: { code: '000000' } })).status).toBe(422);
      const code = totp.generate();
      expect((await c.call('POST', '/api/auth/2fa/verify', { body: { code } })).body).toEqual({ two_factor_enabled: true });

      const needCode = await client().call('POST', '/api/auth/login', { body: { email: 'tfa@example.com', password: 'correct horse battery staple' } });
      expect(needCode.status).toBe(422);
      expect(needCode.body.errors.code).toEqual(['two_factor_required']);
      // The code that confirmed enrolment was used once already.
      expect((await client().call('POST', '/api/auth/login', { body: { email: 'tfa@example.com', password: 'correct horse battery staple', code } })).status).toBe(422);
      const recovery = enrol.body.recovery_codes[0];
      expect((await client().call('POST', '/api/auth/login', { body: { email: 'tfa@example.com', password: 'correct horse battery staple', recovery_code: recovery } })).status).toBe(200);
      expect((await client().call('POST', '/api/auth/login', { body: { email: 'tfa@example.com', password: 'correct horse battery staple', recovery_code: recovery } })).status).toBe(422);
      // Token issue asks for the second factor too.
      expect((await client().call('POST', '/api/auth/token', { body: { email: 'tfa@example.com', password: 'correct horse battery staple' } })).status).toBe(422);

      expect((await c.call('POST', '/api/auth/2fa/disable', { body: { recovery_code: enrol.body.recovery_codes[1] } })).status).toBe(204);
      expect((await client().call('POST', '/api/auth/login', { body: { email: 'tfa@example.com', password: 'correct horse battery staple' } })).status).toBe(200);
      const [row] = await db.query(`SELECT two_factor_secret FROM kb_users WHERE email_key = 'tfa@example.com'`);
      expect(row.two_factor_secret).toBeNull();
    });

    it('refuses null for an optional credential field (remember, code, recovery_code, device_name; the 2fa routes\' code and recovery_code) with 422 naming it: nobody signs in, no token is issued, nothing changes', async () => {
      const user = await createUser(db, { email: 'nulls@example.com' });
      const credentials = { email: 'nulls@example.com', password: 'correct horse battery staple' };
      for (const field of ['remember', 'code', 'recovery_code']) {
        const c = client();
        const r = await c.call('POST', '/api/auth/login', { body: { ...credentials, [field]: null } });
        expect([field, r.status, Object.keys(r.body.errors)]).toEqual([field, 422, [field]]);
        expect((await c.call('GET', '/api/auth/me')).status).toBe(401);
      }
      for (const field of ['device_name', 'code', 'recovery_code']) {
        const r = await client().call('POST', '/api/auth/token', { body: { ...credentials, [field]: null } });
        expect([field, r.status, Object.keys(r.body.errors)]).toEqual([field, 422, [field]]);
      }
      expect((await db.query(`SELECT count(*)::int AS n FROM kb_personal_access_tokens WHERE user_id = $1`, [user.id]))[0].n).toBe(0);
      // Signed in, without a second factor pending: null is refused by name before anything is looked at.
      const c = client();
      expect((await c.call('POST', '/api/auth/login', { body: credentials })).status).toBe(200);
      for (const route of ['verify', 'disable']) {
        const r = await c.call('POST', `/api/auth/2fa/${route}`, { body: { code: null, recovery_code: null } });
        expect([route, r.status, Object.keys(r.body.errors).sort()]).toEqual([route, 422, ['code', 'recovery_code']]);
      }
      const [row] = await db.query(`SELECT two_factor_secret FROM kb_users WHERE email_key = 'nulls@example.com'`);
      expect(row.two_factor_secret).toBeNull();
    });

    it('answers 401 to guests on the 2fa routes', async () => {
      for (const r of ['enable', 'verify', 'disable']) expect((await client().call('POST', `/api/auth/2fa/${r}`)).status).toBe(401);
    });
  });
});
