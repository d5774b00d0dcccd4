import { MigrationInterface, QueryRunner } from 'typeorm';

/** OAuth core: signing keys, clients, authorization codes and refresh tokens. */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE iam_signing_keys (
        kid text PRIMARY KEY,
        state text NOT NULL CHECK (state IN ('next', 'active', 'retiring', 'retired')),
        public_jwk jsonb NOT NULL,
        private_key_encrypted text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz NOT NULL DEFAULT now(),
        activated_at timestamptz,
        retiring_at timestamptz,
        retire_after timestamptz,
        retired_at timestamptz
      )`);
    // At most one key signs at a time.
    await q.query(`CREATE UNIQUE INDEX iam_signing_keys_one_active ON iam_signing_keys (state) WHERE state = 'active'`);
    await q.query(`CREATE UNIQUE INDEX iam_signing_keys_one_next ON iam_signing_keys (state) WHERE state = 'next'`);

    await q.query(`
      CREATE TABLE oauth_clients (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id text NOT NULL UNIQUE,
        name text NOT NULL,
        is_confidential boolean NOT NULL,
        token_endpoint_auth_method text NOT NULL
          CHECK (token_endpoint_auth_method IN ('client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none')),
        redirect_uris text[] NOT NULL DEFAULT '{}',
        grant_types text[] NOT NULL DEFAULT '{}',
        scopes text[] NOT NULL DEFAULT '{}',
        jwks jsonb,
        first_party boolean NOT NULL DEFAULT false,
        secret_hash text,
        previous_secret_hash text,
        previous_secret_grace_until timestamptz,
        secret_expires_at timestamptz,
        secret_rotated_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (is_confidential OR token_endpoint_auth_method = 'none'),
        CHECK (token_endpoint_auth_method <> 'private_key_jwt' OR jwks IS NOT NULL)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE oauth_clients');
    await q.query('DROP TABLE iam_signing_keys');
  }
}
