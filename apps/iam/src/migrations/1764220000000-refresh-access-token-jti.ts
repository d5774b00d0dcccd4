import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The jti of the access token issued with each refresh token, so the rotation that spends the
 * refresh token revokes that access token too. Null for tokens issued before: their rotation has
 * no access token to revoke (it expires on its own within IAM_ACCESS_TOKEN_TTL_SEC).
 */
export class RefreshAccessTokenJti1764220000000 implements MigrationInterface {
  name = 'RefreshAccessTokenJti1764220000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_refresh_tokens ADD COLUMN access_token_jti text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oauth_refresh_tokens DROP COLUMN access_token_jti`);
  }
}
