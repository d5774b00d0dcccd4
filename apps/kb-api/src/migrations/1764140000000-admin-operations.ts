import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tables of KbAdminOperationsModule: maintenance command runs, connectors and their syncs, tabular reviews. */
export class KbAdminOperations1764140000000 implements MigrationInterface {
  name = 'KbAdminOperations1764140000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_command_runs (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        command text NOT NULL,
        params jsonb NOT NULL DEFAULT '{}'::jsonb,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'failed')),
        result jsonb NOT NULL DEFAULT '{}'::jsonb,
        error text,
        trigger text NOT NULL DEFAULT 'api' CHECK (trigger IN ('api', 'schedule')),
        actor_user_id bigint REFERENCES kb_users(id) ON DELETE SET NULL,
        idempotency_key text,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        duration_ms integer
      )`);
    await q.query('CREATE INDEX kb_command_runs_tenant_idx ON kb_command_runs (tenant_id, id DESC)');
    await q.query('CREATE INDEX kb_command_runs_command_idx ON kb_command_runs (tenant_id, command, started_at DESC)');
    // A retried request with the same Idempotency-Key finds the first run instead of running again.
    await q.query('CREATE UNIQUE INDEX kb_command_runs_idempotency_idx ON kb_command_runs (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL');

    await q.query(`
      CREATE TABLE kb_connectors (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('filesystem', 'web')),
        project_key text NOT NULL,
        config jsonb NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        created_by bigint REFERENCES kb_users(id) ON DELETE SET NULL,
        last_synced_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await q.query('CREATE INDEX kb_connectors_tenant_idx ON kb_connectors (tenant_id, id DESC)');
    await q.query(`
      CREATE TABLE kb_connector_runs (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        connector_id bigint NOT NULL REFERENCES kb_connectors(id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'succeeded', 'partial', 'failed')),
        seen integer NOT NULL DEFAULT 0,
        queued integer NOT NULL DEFAULT 0,
        skipped_unchanged integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        errors jsonb NOT NULL DEFAULT '[]'::jsonb,
        document_ids bigint[] NOT NULL DEFAULT '{}',
        triggered_by bigint REFERENCES kb_users(id) ON DELETE SET NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query('CREATE INDEX kb_connector_runs_connector_idx ON kb_connector_runs (tenant_id, connector_id, id DESC)');
    await q.query('CREATE INDEX kb_connector_runs_started_idx ON kb_connector_runs (tenant_id, started_at DESC)');

    await q.query(`
      CREATE TABLE kb_tabular_reviews (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        name text NOT NULL,
        project_key text,
        document_ids bigint[] NOT NULL,
        columns jsonb NOT NULL,
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'completed', 'failed')),
        created_by bigint REFERENCES kb_users(id) ON DELETE SET NULL,
        last_run_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_tabular_reviews_tenant_idx ON kb_tabular_reviews (tenant_id, id DESC)');
    await q.query(`
      CREATE TABLE kb_tabular_review_cells (
        review_id bigint NOT NULL REFERENCES kb_tabular_reviews(id) ON DELETE CASCADE,
        tenant_id text NOT NULL,
        document_id bigint NOT NULL,
        column_index integer NOT NULL,
        status text NOT NULL CHECK (status IN ('answered', 'no_answer')),
        answer text,
        citation jsonb,
        answered_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (review_id, document_id, column_index)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['kb_tabular_review_cells', 'kb_tabular_reviews', 'kb_connector_runs', 'kb_connectors', 'kb_command_runs']) await q.query(`DROP TABLE ${t}`);
  }
}
