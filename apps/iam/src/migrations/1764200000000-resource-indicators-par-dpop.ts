import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Resource indicators (RFC 8707), pushed authorization requests (RFC 9126) and DPoP (RFC 9449):
 * per-client PAR and DPoP requirements, the resources and key an authorization code was issued
 * for, and the key a public client's refresh tokens are bound to. Thumbprints are public values,
 * so they are stored as they are.
 */
export class ResourceIndicatorsParDpop1764200000000 implements MigrationInterface {
  name = 'ResourceIndicatorsParDpop1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_clients
      ADD COLUMN require_pushed_authorization_requests boolean NOT NULL DEFAULT false,
      ADD COLUMN dpop_bound_access_tokens boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE oauth_authorization_codes
      ADD COLUMN resources text[] NOT NULL DEFAULT '{}',
      ADD COLUMN dpop_jkt text`);
    await q.query(`ALTER TABLE oauth_refresh_tokens ADD COLUMN dpop_jkt text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE oauth_refresh_tokens DROP COLUMN dpop_jkt');
    await q.query('ALTER TABLE oauth_authorization_codes DROP COLUMN resources, DROP COLUMN dpop_jkt');
    await q.query('ALTER TABLE oauth_clients DROP COLUMN require_pushed_authorization_requests, DROP COLUMN dpop_bound_access_tokens');
  }
}
