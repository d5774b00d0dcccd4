import { MigrationInterface, QueryRunner } from 'typeorm';

/** Applications owning clients, automatic rotation with pending pickup, and the management audit log. */
export class ClientSecretLifecycle1763820000000 implements MigrationInterface {
  name = 'ClientSecretLifecycle1763820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE iam_applications (
        key text PRIMARY KEY CHECK (key ~ '^[a-z0-9][a-z0-9-]{1,62}$'),
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('service', 'web', 'spa')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`ALTER TABLE oauth_clients
      ADD COLUMN application_key text UNIQUE REFERENCES iam_applications(key) ON DELETE CASCADE,
      ADD COLUMN auto_rotate boolean NOT NULL DEFAULT false,
      ADD COLUMN rotate_interval_days integer CHECK (rotate_interval_days IS NULL OR rotate_interval_days > 0),
      ADD COLUMN secret_pending_encrypted text`);
    await q.query(`
      CREATE TABLE iam_audit_log (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor text NOT NULL,
        action text NOT NULL,
        client_id text,
        details jsonb NOT NULL DEFAULT '{}'
      )`);
    await q.query(`CREATE INDEX iam_audit_log_client ON iam_audit_log (client_id, at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE iam_audit_log');
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN application_key, DROP COLUMN auto_rotate,
      DROP COLUMN rotate_interval_days, DROP COLUMN secret_pending_encrypted`);
    await q.query('DROP TABLE iam_applications');
  }
}
