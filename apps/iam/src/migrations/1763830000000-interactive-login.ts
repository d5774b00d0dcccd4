import { MigrationInterface, QueryRunner } from 'typeorm';

/** Interactive login: server-side sessions, TOTP with recovery codes, passkeys, upstream identities, consent. */
export class InteractiveLogin1763830000000 implements MigrationInterface {
  name = 'InteractiveLogin1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE iam_users
      ADD COLUMN totp_secret_encrypted text,
      ADD COLUMN totp_enabled_at timestamptz,
      ADD COLUMN totp_last_step bigint`);

    // The cookie carries a random token; only its keyed hash is stored, so a database read cannot
    // be replayed as a session.
    await q.query(`
      CREATE TABLE iam_sessions (
        token_hash text PRIMARY KEY,
        id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES iam_users(id) ON DELETE CASCADE,
        auth_time timestamptz NOT NULL,
        aal text NOT NULL CHECK (aal IN ('aal1', 'aal2', 'aal3')),
        amr text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        ended_at timestamptz
      )`);
    await q.query(`CREATE INDEX iam_sessions_user ON iam_sessions (user_id)`);
    await q.query(`CREATE INDEX iam_sessions_expiry ON iam_sessions (expires_at)`);

    await q.query(`
      CREATE TABLE iam_recovery_codes (
        user_id uuid NOT NULL REFERENCES iam_users(id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz,
        PRIMARY KEY (user_id, code_hash)
      )`);

    await q.query(`
      CREATE TABLE iam_passkeys (
        credential_id text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES iam_users(id) ON DELETE CASCADE,
        public_key bytea NOT NULL,
        sign_count bigint NOT NULL DEFAULT 0,
        transports text[] NOT NULL DEFAULT '{}',
        device_type text NOT NULL,
        backed_up boolean NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      )`);
    await q.query(`CREATE INDEX iam_passkeys_user ON iam_passkeys (user_id)`);
    // WebAuthn user handle: random, never the user id or email (it is stored on the authenticator).
    await q.query(`ALTER TABLE iam_users ADD COLUMN webauthn_user_handle text UNIQUE`);

    await q.query(`
      CREATE TABLE iam_federated_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES iam_users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      )`);

    await q.query(`
      CREATE TABLE iam_consents (
        user_id uuid NOT NULL REFERENCES iam_users(id) ON DELETE CASCADE,
        client_id text NOT NULL,
        scopes text[] NOT NULL,
        granted_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, client_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE iam_consents');
    await q.query('DROP TABLE iam_federated_identities');
    await q.query('DROP TABLE iam_passkeys');
    await q.query('DROP TABLE iam_recovery_codes');
    await q.query('DROP TABLE iam_sessions');
    await q.query(`ALTER TABLE iam_users DROP COLUMN webauthn_user_handle, DROP COLUMN totp_secret_encrypted,
      DROP COLUMN totp_enabled_at, DROP COLUMN totp_last_step`);
  }
}
