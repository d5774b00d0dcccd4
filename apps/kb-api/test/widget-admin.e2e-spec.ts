import { RunningService } from '@platform/testing';
import { DataSource } from 'typeorm';
import { Caller, callerWith } from './admin-support';
import { KbClient } from './kb-fixtures';
import { startKb } from './kb-test-env';

describe('kb-api widget keys admin', () => {
  let svc: RunningService;
  let db: DataSource;
  let stop: () => Promise<void>;
  let superAdmin: Caller;
  let admin: Caller;
  let viewer: Caller;
  let otherTenantOwner: Caller;
  const api = (method: string, path: string, token?: string, body?: unknown) => new KbClient(svc.url).call(method, path, { token, body });

  beforeAll(async () => {
    ({ svc, db, stop } = await startKb());
    superAdmin = await callerWith(svc.url, db, { email: 'owner@example.com', roles: ['super-admin'] });
    admin = await callerWith(svc.url, db, { email: 'admin@example.com', roles: ['admin'] });
    viewer = await callerWith(svc.url, db, { email: 'viewer@example.com', roles: ['viewer'] });
    otherTenantOwner = await callerWith(svc.url, db, { email: 'owner@other.example', tenant: 'other', roles: ['super-admin'] });
    await db.query(`INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ('default', 'docs', 'Product docs'), ('other', 'default', 'Default') ON CONFLICT DO NOTHING`);
  }, 60_000);

  afterAll(async () => {
    await stop?.();
  });

  it('gates keys on manageWidgetKeys (super-admin) and sessions on viewWidgetSessions (admin)', async () => {
    expect((await api('GET', '/api/admin/widget-keys')).status).toBe(401);
    expect((await api('GET', '/api/admin/widget-sessions')).status).toBe(401);
    const forbidden = await api('GET', '/api/admin/widget-keys', admin.token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ message: 'This action is unauthorized.' });
    expect((await api('POST', '/api/admin/widget-keys', admin.token, { label: 'x', project_key: 'docs' })).status).toBe(403);
    expect((await api('GET', '/api/admin/widget-keys', viewer.token)).status).toBe(403);
    expect((await api('GET', '/api/admin/widget-keys', superAdmin.token)).status).toBe(200);
    expect((await api('GET', '/api/admin/widget-sessions', viewer.token)).status).toBe(403);
    const sessions = await api('GET', '/api/admin/widget-sessions', admin.token);
    expect(sessions.status).toBe(200);
    expect(sessions.body).toMatchObject({ data: [], current_page: 1, total: 0 });
    expect((await api('GET', '/api/admin/widget-sessions', superAdmin.token)).status).toBe(200);
  });

  it('validates a new key and names each bad field', async () => {
    const bad = await api('POST', '/api/admin/widget-keys', superAdmin.token, {
      label: '',
      project_key: 'nope',
      allowed_origins: ['https://ok.example', 'https://bad.example/path'],
      rate_limit: 0,
      theme: { accent: 'red' },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['allowed_origins', 'label', 'rate_limit', 'theme.accent']);
    const tooFast = await api('POST', '/api/admin/widget-keys', superAdmin.token, { label: 'k', project_key: 'docs', rate_limit: 1001 });
    expect(tooFast.body.errors).toHaveProperty('rate_limit');
    const refs = await api('POST', '/api/admin/widget-keys', superAdmin.token, { label: 'k', project_key: 'nope', skill: 'unknown@1' });
    expect(refs.status).toBe(422);
    expect(Object.keys(refs.body.errors).sort()).toEqual(['project_key', 'skill']);
    // null is not "the default" (empty origins, 60 a minute, off, the default skill or theme colour): refused by name.
    const nulls = await api('POST', '/api/admin/widget-keys', superAdmin.token, {
      label: 'k',
      project_key: 'docs',
      allowed_origins: null,
      rate_limit: null,
      skill: null,
      host_tools_enabled: null,
      user_auth_enabled: null,
      theme: { accent: null, background: null, fontFamily: null, launcherShape: null, position: null, title: null },
    });
    expect(nulls.status).toBe(422);
    expect(Object.keys(nulls.body.errors).sort()).toEqual([
      'allowed_origins',
      'host_tools_enabled',
      'rate_limit',
      'skill',
      'theme.accent',
      'theme.background',
      'theme.fontFamily',
      'theme.launcherShape',
      'theme.position',
      'theme.title',
      'user_auth_enabled',
    ]);
    expect((await db.query('SELECT count(*)::int AS n FROM kb_widget_keys'))[0].n).toBe(0);
  });

  it('creates a key, shows its secrets once and never lists them', async () => {
    const created = await api('POST', '/api/admin/widget-keys', superAdmin.token, {
      label: 'Help centre',
      project_key: 'docs',
      allowed_origins: ['HTTPS://Docs.Example.com/', 'http://127.0.0.1:8081'],
      user_auth_enabled: true,
      theme: { accent: '#ff6600', launcherShape: 'rounded' },
    });
    expect(created.status).toBe(201);
    expect(created.body.plain_secret).toMatch(/^sk_[0-9A-Za-z]{40,}$/);
    expect(created.body.public_key).toMatch(/^pk_[0-9A-Za-z]{20,}$/);
    expect(created.body.identity_secret).toMatch(/^wis_/);
    expect(created.body.data).toMatchObject({
      label: 'Help centre',
      project_key: 'docs',
      public_key: created.body.public_key,
      allowed_origins: ['https://docs.example.com', 'http://127.0.0.1:8081'],
      rate_limit: 60,
      skill: null,
      host_tools_enabled: false,
      user_auth_enabled: true,
      has_identity_secret: true,
      active: true,
      identity_credential_version: 1,
      theme: { accent: '#ff6600', launcherShape: 'rounded' },
    });
    const id = created.body.data.id;
    const [stored] = await db.query('SELECT secret_hash, identity_secret_hash FROM kb_widget_keys WHERE id = $1', [id]);
    expect(stored.secret_hash).not.toContain(created.body.plain_secret);
    expect(stored.identity_secret_hash).not.toContain(created.body.identity_secret);

    const list = await api('GET', '/api/admin/widget-keys?per_page=5&search=help', superAdmin.token);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, per_page: 5, current_page: 1, last_page: 1 });
    const text = JSON.stringify(list.body) + JSON.stringify((await api('GET', `/api/admin/widget-keys/${id}`, superAdmin.token)).body);
    expect(text).not.toContain(created.body.plain_secret);
    expect(text).not.toContain(created.body.identity_secret);
    expect(text).not.toMatch(/hash/);
    expect((await api('GET', '/api/admin/widget-keys?per_page=101', superAdmin.token)).status).toBe(422);
  });

  it('updates only with the current identity_credential_version (409 when stale) and moves it every time', async () => {
    const created = await api('POST', '/api/admin/widget-keys', superAdmin.token, { label: 'Versioned', project_key: 'docs' });
    const id = created.body.data.id;
    const missing = await api('PATCH', `/api/admin/widget-keys/${id}`, superAdmin.token, { active: false });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty('identity_credential_version');
    const nulls = await api('PATCH', `/api/admin/widget-keys/${id}`, superAdmin.token, { label: null, rate_limit: null, identity_credential_version: 1 });
    expect(nulls.status).toBe(422);
    expect(Object.keys(nulls.body.errors).sort()).toEqual(['label', 'rate_limit']);
    const moreNulls = await api('PATCH', `/api/admin/widget-keys/${id}`, superAdmin.token, { project_key: null, skill: null, active: null, theme: { title: null }, identity_credential_version: 1 });
    expect([moreNulls.status, Object.keys(moreNulls.body.errors).sort()]).toEqual([422, ['active', 'project_key', 'skill', 'theme.title']]);
    expect((await api('GET', `/api/admin/widget-keys/${id}`, superAdmin.token)).body.data).toMatchObject({ label: 'Versioned', project_key: 'docs', active: true, theme: {}, identity_credential_version: 1 });

    const disabled = await api('PATCH', `/api/admin/widget-keys/${id}`, superAdmin.token, { active: false, rate_limit: 5, identity_credential_version: 1 });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ active: false, rate_limit: 5, identity_credential_version: 2 });
    const stale = await api('PATCH', `/api/admin/widget-keys/${id}`, superAdmin.token, { active: true, identity_credential_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ error: 'identity_credential_conflict' });
    expect((await api('GET', `/api/admin/widget-keys/${id}`, superAdmin.token)).body.data).toMatchObject({ active: false, identity_credential_version: 2 });

    // Two writers that read the same version: exactly one wins.
    const race = await Promise.all([
      api('PATCH', `/api/admin/widget-keys/${id}`, superAdmin.token, { active: true, identity_credential_version: 2 }),
      api('PATCH', `/api/admin/widget-keys/${id}`, superAdmin.token, { label: 'Renamed', identity_credential_version: 2 }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);

    const staleRotate = await api('POST', `/api/admin/widget-keys/${id}/rotate-identity-secret`, superAdmin.token, { identity_credential_version: 2 });
    expect(staleRotate.status).toBe(409);
    expect(staleRotate.body.error).toBe('identity_credential_conflict');
    const rotated = await api('POST', `/api/admin/widget-keys/${id}/rotate-identity-secret`, superAdmin.token, { identity_credential_version: 3 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.identity_secret).toMatch(/^wis_/);
    expect(rotated.body.data).toMatchObject({ identity_credential_version: 4, has_identity_secret: true });
    expect((await api('POST', `/api/admin/widget-keys/${id}/rotate-identity-secret`, superAdmin.token, {})).status).toBe(422);
  });

  it('rotates the proxy secret, revokes for good, deletes, and keeps tenants apart', async () => {
    const created = await api('POST', '/api/admin/widget-keys', superAdmin.token, { label: 'Lifecycle', project_key: 'docs' });
    const id = created.body.data.id;
    const rotated = await api('POST', `/api/admin/widget-keys/${id}/rotate`, superAdmin.token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.plain_secret).toMatch(/^sk_/);
    expect(rotated.body.plain_secret).not.toBe(created.body.plain_secret);

    const revoked = await api('POST', `/api/admin/widget-keys/${id}/revoke`, superAdmin.token);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.active).toBe(false);
    expect(revoked.body.data.revoked_at).not.toBeNull();
    const reenable = await api('PATCH', `/api/admin/widget-keys/${id}`, superAdmin.token, { active: true, identity_credential_version: revoked.body.data.identity_credential_version });
    expect(reenable.status).toBe(422);
    expect(reenable.body.errors).toHaveProperty('active');

    const foreign = await api('POST', '/api/admin/widget-keys', otherTenantOwner.token, { label: 'Other', project_key: 'default' });
    expect(foreign.status).toBe(201);
    const foreignId = foreign.body.data.id;
    expect((await api('GET', `/api/admin/widget-keys/${foreignId}`, superAdmin.token)).status).toBe(404);
    expect((await api('PATCH', `/api/admin/widget-keys/${foreignId}`, superAdmin.token, { label: 'x', identity_credential_version: 1 })).status).toBe(404);
    expect((await api('DELETE', `/api/admin/widget-keys/${foreignId}`, superAdmin.token)).status).toBe(404);
    expect((await api('POST', `/api/admin/widget-keys/${foreignId}/rotate`, superAdmin.token)).status).toBe(404);
    expect((await api('GET', '/api/admin/widget-keys/abc', superAdmin.token)).status).toBe(404);

    expect((await api('DELETE', `/api/admin/widget-keys/${id}`, superAdmin.token)).status).toBe(204);
    expect((await api('GET', `/api/admin/widget-keys/${id}`, superAdmin.token)).status).toBe(404);
    expect((await api('GET', '/api/admin/widget-sessions/00000000-0000-4000-8000-000000000000', admin.token)).status).toBe(404);
    expect((await api('GET', '/api/admin/widget-sessions?status=nope', admin.token)).status).toBe(422);
  });
});
