import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clients that were never registered by an administrator: `dynamic` ones made by RFC 7591
 * registration, and `metadata_document` ones resolved from a Client ID Metadata Document, whose
 * row is a cache of the document until metadata_expires_at.
 */
export class UnregisteredClients1764210000000 implements MigrationInterface {
  name = 'UnregisteredClients1764210000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE oauth_clients
      ADD COLUMN registration_type text NOT NULL DEFAULT 'static'
        CHECK (registration_type IN ('static', 'dynamic', 'metadata_document')),
      ADD COLUMN metadata_expires_at timestamptz
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_clients DROP COLUMN metadata_expires_at, DROP COLUMN registration_type`);
  }
}
