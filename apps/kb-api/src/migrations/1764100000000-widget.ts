import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The embeddable widget: keys (secrets kept only as keyed hashes), the short-lived tokens minted
 * for browsers and host users, sessions and their recorded steps. A key's tokens, sessions and
 * steps go with it.
 */
export class KbWidget1764100000000 implements MigrationInterface {
  name = 'KbWidget1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_widget_keys (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        label text NOT NULL CHECK (length(label) BETWEEN 1 AND 120),
        project_key text NOT NULL,
        public_key text NOT NULL UNIQUE,
        secret_hash text NOT NULL,
        identity_secret_hash text,
        allowed_origins jsonb NOT NULL DEFAULT '[]',
        rate_limit integer NOT NULL DEFAULT 60 CHECK (rate_limit BETWEEN 1 AND 1000),
        skill text,
        host_tools_enabled boolean NOT NULL DEFAULT false,
        theme jsonb NOT NULL DEFAULT '{}',
        user_auth_enabled boolean NOT NULL DEFAULT false,
        active boolean NOT NULL DEFAULT true,
        revoked_at timestamptz,
        identity_credential_version integer NOT NULL DEFAULT 1,
        created_by bigint REFERENCES kb_users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_widget_keys_tenant_idx ON kb_widget_keys (tenant_id, id DESC)');

    await q.query(`
      CREATE TABLE kb_widget_tokens (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        key_id bigint NOT NULL REFERENCES kb_widget_keys(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('session', 'user')),
        token_hash text NOT NULL UNIQUE,
        identity text NOT NULL,
        origin text,
        session_id uuid,
        locale text,
        identity_credential_version integer,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_widget_tokens_expiry_idx ON kb_widget_tokens (expires_at)');
    await q.query('CREATE INDEX kb_widget_tokens_key_idx ON kb_widget_tokens (key_id)');

    await q.query(`
      CREATE TABLE kb_widget_sessions (
        id uuid PRIMARY KEY,
        tenant_id text NOT NULL,
        key_id bigint NOT NULL REFERENCES kb_widget_keys(id) ON DELETE CASCADE,
        project_key text NOT NULL,
        identity text,
        status text NOT NULL DEFAULT 'active'
          CHECK (status IN ('active', 'waiting_user', 'waiting_tool', 'completed', 'aborted', 'blocked', 'error')),
        origin text,
        page_url text,
        snapshot jsonb NOT NULL DEFAULT '{}',
        step_count integer NOT NULL DEFAULT 0,
        pending_tool jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_widget_sessions_tenant_idx ON kb_widget_sessions (tenant_id, updated_at DESC, id DESC)');
    await q.query('CREATE INDEX kb_widget_sessions_identity_idx ON kb_widget_sessions (key_id, identity, status, updated_at DESC, id DESC)');

    await q.query(`
      CREATE TABLE kb_widget_steps (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        session_id uuid NOT NULL REFERENCES kb_widget_sessions(id) ON DELETE CASCADE,
        step_index integer NOT NULL,
        kind text NOT NULL,
        tool text,
        args_json jsonb,
        diagnostic_json jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (session_id, step_index)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS kb_widget_steps');
    await q.query('DROP TABLE IF EXISTS kb_widget_sessions');
    await q.query('DROP TABLE IF EXISTS kb_widget_tokens');
    await q.query('DROP TABLE IF EXISTS kb_widget_keys');
  }
}
