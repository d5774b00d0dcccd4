import { MigrationInterface, QueryRunner } from 'typeorm';

/** Marks the service's schema as owned and versioned; feature tables arrive in later migrations. */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE service_metadata (key text PRIMARY KEY, value text NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE service_metadata');
  }
}
