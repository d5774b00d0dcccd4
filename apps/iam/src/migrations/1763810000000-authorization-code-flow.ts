import { MigrationInterface, QueryRunner } from 'typeorm';

/** Users (minimal until interactive login), authorization codes, refresh-token families. */
export class AuthorizationCodeFlow1763810000000 implements MigrationInterface {
  name = 'AuthorizationCodeFlow1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE iam_users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text NOT NULL DEFAULT '',
        password_hash text,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX iam_users_email_key ON iam_users (lower(email))`);

    // A grant: everything issued from one authorization code. Revoking it ends every refresh token
    // of the family and makes introspection refuse its access tokens.
    await q.query(`
      CREATE TABLE oauth_grants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id text NOT NULL,
        user_id uuid NOT NULL REFERENCES iam_users(id) ON DELETE CASCADE,
        revoked_at timestamptz,
        revoked_reason text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE oauth_authorization_codes (
        code_hash text PRIMARY KEY,
        grant_id uuid NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
        client_id text NOT NULL,
        user_id uuid NOT NULL REFERENCES iam_users(id) ON DELETE CASCADE,
        redirect_uri text NOT NULL,
        scopes text[] NOT NULL,
        code_challenge text,
        nonce text,
        auth_time timestamptz NOT NULL,
        acr text NOT NULL,
        amr text[] NOT NULL,
        expires_at timestamptz NOT NULL,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE oauth_refresh_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash text NOT NULL UNIQUE,
        grant_id uuid NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
        client_id text NOT NULL,
        payload_encrypted text NOT NULL,
        expires_at timestamptz NOT NULL,
        rotated_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id)`);
    await q.query(`CREATE INDEX oauth_authorization_codes_expiry ON oauth_authorization_codes (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE oauth_refresh_tokens');
    await q.query('DROP TABLE oauth_authorization_codes');
    await q.query('DROP TABLE oauth_grants');
    await q.query('DROP TABLE iam_users');
  }
}
