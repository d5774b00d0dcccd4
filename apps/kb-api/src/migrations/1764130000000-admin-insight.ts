import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tables of KbAdminInsightModule: the per-tenant PII strategy and the reversible tokens it writes,
 * the application and activity logs, insight snapshots and compliance reports. Chat logs gain the
 * project they were asked in and how many PII findings each detector made (counted before redaction,
 * so a data inventory can report them after the text itself was masked).
 */
export class KbAdminInsight1764130000000 implements MigrationInterface {
  name = 'KbAdminInsight1764130000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_pii_strategies (
        tenant_id text PRIMARY KEY REFERENCES kb_tenants(id) ON DELETE CASCADE,
        actions jsonb NOT NULL,
        detokenize_permission text NOT NULL DEFAULT 'pii.detokenize',
        updated_by bigint,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(
      `ALTER TABLE kb_chat_logs ADD COLUMN project_key text, ADD COLUMN pii_hits jsonb NOT NULL DEFAULT '{}'::jsonb`,
    );
    await q.query(
      'CREATE INDEX kb_chat_logs_tenant_created_idx ON kb_chat_logs (tenant_id, created_at)',
    );
    await q.query(
      'CREATE INDEX kb_chat_logs_tenant_user_idx ON kb_chat_logs (tenant_id, user_id, id DESC)',
    );

    await q.query(`
      CREATE TABLE kb_pii_tokens (
        id uuid PRIMARY KEY,
        tenant_id text NOT NULL,
        chat_log_id bigint NOT NULL REFERENCES kb_chat_logs(id) ON DELETE CASCADE,
        detector text NOT NULL,
        ciphertext text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_pii_tokens_log_idx ON kb_pii_tokens (tenant_id, chat_log_id)');

    await q.query(`
      CREATE TABLE kb_application_logs (
        id bigserial PRIMARY KEY,
        tenant_id text,
        level text NOT NULL CHECK (level IN ('error', 'warning')),
        method text NOT NULL,
        route text NOT NULL,
        status integer NOT NULL,
        error_class text NOT NULL,
        error_code text,
        request_id text,
        user_id bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      'CREATE INDEX kb_application_logs_tenant_idx ON kb_application_logs (tenant_id, id DESC)',
    );
    await q.query(
      'CREATE INDEX kb_application_logs_created_idx ON kb_application_logs (created_at)',
    );

    await q.query(`
      CREATE TABLE kb_activity_logs (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        actor_user_id bigint,
        actor_kind text NOT NULL,
        method text NOT NULL,
        route text NOT NULL,
        status integer NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('success', 'failure')),
        target_id text,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      'CREATE INDEX kb_activity_logs_tenant_idx ON kb_activity_logs (tenant_id, id DESC)',
    );
    await q.query(
      'CREATE INDEX kb_activity_logs_actor_idx ON kb_activity_logs (tenant_id, actor_user_id, id DESC)',
    );
    await q.query('CREATE INDEX kb_activity_logs_created_idx ON kb_activity_logs (created_at)');

    await q.query(`
      CREATE TABLE kb_insight_snapshots (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id) ON DELETE CASCADE,
        period_from timestamptz NOT NULL,
        period_to timestamptz NOT NULL,
        data jsonb NOT NULL,
        computed_by bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      'CREATE INDEX kb_insight_snapshots_tenant_idx ON kb_insight_snapshots (tenant_id, id DESC)',
    );

    await q.query(`
      CREATE TABLE kb_compliance_reports (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('data-inventory', 'access-review', 'retention')),
        params jsonb NOT NULL DEFAULT '{}'::jsonb,
        content jsonb NOT NULL,
        row_count integer NOT NULL,
        created_by bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      'CREATE INDEX kb_compliance_reports_tenant_idx ON kb_compliance_reports (tenant_id, id DESC)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'kb_compliance_reports',
      'kb_insight_snapshots',
      'kb_activity_logs',
      'kb_application_logs',
      'kb_pii_tokens',
      'kb_pii_strategies',
    ])
      await q.query(`DROP TABLE ${t}`);
    await q.query('DROP INDEX kb_chat_logs_tenant_user_idx');
    await q.query('DROP INDEX kb_chat_logs_tenant_created_idx');
    await q.query('ALTER TABLE kb_chat_logs DROP COLUMN pii_hits, DROP COLUMN project_key');
  }
}
