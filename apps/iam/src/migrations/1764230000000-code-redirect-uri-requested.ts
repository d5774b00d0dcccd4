import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether the authorization request named its redirect_uri (RFC 6749 §4.1.3: only then must the
 * token request repeat it). Codes issued before were redeemed with it, so they keep needing it.
 */
export class CodeRedirectUriRequested1764230000000 implements MigrationInterface {
  name = 'CodeRedirectUriRequested1764230000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_authorization_codes ADD COLUMN redirect_uri_requested boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_authorization_codes DROP COLUMN redirect_uri_requested`);
  }
}
