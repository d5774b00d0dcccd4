import { MigrationInterface, QueryRunner } from 'typeorm';
import { PERMISSIONS, ROLE_GRANTS, ROLES } from '../app/identity/rbac';

/**
 * Tenants, users (one global identity per trimmed, lower-cased email), per-tenant roles, projects
 * and memberships, personal access tokens, sessions and password resets. Secrets are stored as
 * keyed hashes; TOTP seeds encrypted. Every tenant-owned table carries tenant_id.
 */
export class KbIdentity1763940000000 implements MigrationInterface {
  name = 'KbIdentity1763940000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_tenants (
        id text PRIMARY KEY CHECK (id ~ '^[a-z0-9_-]{1,50}$'),
        name text NOT NULL,
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO kb_tenants (id, name) VALUES ('default', 'Default')`);

    await q.query(`
      CREATE TABLE kb_users (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        name text NOT NULL,
        email text NOT NULL,
        email_key text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        email_verified_at timestamptz,
        two_factor_secret text,
        two_factor_confirmed_at timestamptz,
        two_factor_recovery_codes jsonb NOT NULL DEFAULT '[]'::jsonb,
        preferences jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_users_tenant_idx ON kb_users (tenant_id, id)');

    await q.query(`CREATE TABLE kb_roles (name text PRIMARY KEY, description text NOT NULL DEFAULT '')`);
    await q.query(`CREATE TABLE kb_permissions (name text PRIMARY KEY, description text NOT NULL DEFAULT '')`);
    await q.query(`
      CREATE TABLE kb_role_permissions (
        role text NOT NULL REFERENCES kb_roles(name) ON DELETE CASCADE,
        permission text NOT NULL REFERENCES kb_permissions(name) ON DELETE CASCADE,
        PRIMARY KEY (role, permission)
      )`);
    for (const role of ROLES) await q.query('INSERT INTO kb_roles (name) VALUES ($1)', [role]);
    for (const p of [...PERMISSIONS, 'platform.admin']) await q.query('INSERT INTO kb_permissions (name) VALUES ($1)', [p]);
    for (const [role, grants] of Object.entries(ROLE_GRANTS)) {
      for (const p of grants) await q.query('INSERT INTO kb_role_permissions (role, permission) VALUES ($1, $2)', [role, p]);
    }

    await q.query(`
      CREATE TABLE kb_user_roles (
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        role text NOT NULL REFERENCES kb_roles(name),
        PRIMARY KEY (tenant_id, user_id, role)
      )`);
    await q.query('CREATE INDEX kb_user_roles_user_idx ON kb_user_roles (user_id)');
    // Permissions held directly: tenant_id NULL means global (platform.admin).
    await q.query(`
      CREATE TABLE kb_user_permissions (
        id bigserial PRIMARY KEY,
        tenant_id text REFERENCES kb_tenants(id),
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        permission text NOT NULL REFERENCES kb_permissions(name)
      )`);
    await q.query(`CREATE UNIQUE INDEX kb_user_permissions_uq ON kb_user_permissions (user_id, coalesce(tenant_id, ''), permission)`);

    await q.query(`
      CREATE TABLE kb_projects (
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        project_key text NOT NULL CHECK (length(project_key) BETWEEN 1 AND 120),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, project_key)
      )`);
    await q.query(`INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ('default', 'default', 'Default')`);
    await q.query(`
      CREATE TABLE kb_memberships (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        project_key text NOT NULL,
        role text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member', 'viewer')),
        scope text NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'read')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        FOREIGN KEY (tenant_id, project_key) REFERENCES kb_projects(tenant_id, project_key) ON DELETE CASCADE,
        UNIQUE (tenant_id, user_id, project_key)
      )`);
    await q.query('CREATE INDEX kb_memberships_user_idx ON kb_memberships (user_id)');

    await q.query(`
      CREATE TABLE kb_personal_access_tokens (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        abilities jsonb NOT NULL,
        expires_at timestamptz NOT NULL,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_pat_user_idx ON kb_personal_access_tokens (user_id)');

    await q.query(`
      CREATE TABLE kb_sessions (
        id bigserial PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        csrf_hash text NOT NULL,
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        two_factor_passed boolean NOT NULL DEFAULT false,
        ip text,
        user_agent text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await q.query('CREATE INDEX kb_sessions_user_idx ON kb_sessions (user_id)');

    await q.query(`
      CREATE TABLE kb_password_resets (
        id bigserial PRIMARY KEY,
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    // Development mail: when no SMTP transport is configured, messages land here instead.
    await q.query(`
      CREATE TABLE kb_mail_outbox (
        id bigserial PRIMARY KEY,
        recipient text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'kb_mail_outbox',
      'kb_password_resets',
      'kb_sessions',
      'kb_personal_access_tokens',
      'kb_memberships',
      'kb_projects',
      'kb_user_permissions',
      'kb_user_roles',
      'kb_role_permissions',
      'kb_permissions',
      'kb_roles',
      'kb_users',
      'kb_tenants',
    ]) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
