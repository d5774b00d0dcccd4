import { MigrationInterface, QueryRunner } from 'typeorm';

/** The append-only review log, tenant-scoped. */
export class ReviewLog1763830000000 implements MigrationInterface {
  name = 'ReviewLog1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE evidence_review_logs (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        review_id text NOT NULL,
        artifact_id text NOT NULL,
        profile_key text NOT NULL,
        max_verdict text NOT NULL DEFAULT 'keep',
        verdict_severity smallint NOT NULL DEFAULT 0,
        risk_score numeric(5,4) NOT NULL,
        -- text, not jsonb: the stored result must come back byte for byte (jsonb reorders keys).
        result text NOT NULL,
        artifact jsonb NOT NULL,
        options jsonb NOT NULL,
        reviewed_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX evidence_review_logs_tenant_time ON evidence_review_logs (tenant_id, reviewed_at DESC, id DESC)');
    await q.query('CREATE INDEX evidence_review_logs_review ON evidence_review_logs (tenant_id, review_id)');
    // Append-only: the log is evidence of what was reviewed; rows are never changed.
    await q.query(`CREATE FUNCTION evidence_review_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'evidence_review_logs is append-only'; END $$`);
    await q.query(`CREATE TRIGGER evidence_review_logs_no_update BEFORE UPDATE ON evidence_review_logs
      FOR EACH ROW EXECUTE FUNCTION evidence_review_logs_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE evidence_review_logs');
    await q.query('DROP FUNCTION evidence_review_logs_append_only');
  }
}
