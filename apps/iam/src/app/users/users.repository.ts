import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface IamUser {
  id: string;
  email: string;
  name: string;
  active: boolean;
}

export interface LoginUser extends IamUser {
  password_hash: string | null;
  totp_secret_encrypted: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: string | null;
  webauthn_user_handle: string | null;
  passkey_count: number;
}

const USER_COLUMNS = 'id, email, name, active';
const LOGIN_COLUMNS = `id, email, name, active, password_hash, totp_secret_encrypted, totp_enabled_at, totp_last_step, webauthn_user_handle,
  (SELECT count(*)::int FROM iam_passkeys p WHERE p.user_id = iam_users.id) AS passkey_count`;

/** Users: identity, password hash and second-factor state. */
@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async findById(id: string): Promise<IamUser | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const [row] = await this.dataSource.query(`SELECT ${USER_COLUMNS} FROM iam_users WHERE id = $1`, [id]);
    return row ?? null;
  }

  async findForLogin(id: string): Promise<LoginUser | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const [row] = await this.dataSource.query(`SELECT ${LOGIN_COLUMNS} FROM iam_users WHERE id = $1`, [id]);
    return row ?? null;
  }

  async findForLoginByEmail(email: string): Promise<LoginUser | null> {
    const [row] = await this.dataSource.query(`SELECT ${LOGIN_COLUMNS} FROM iam_users WHERE lower(email) = lower(trim($1))`, [email]);
    return row ?? null;
  }

  async upsertByEmail(email: string, name: string, passwordHash: string | null): Promise<IamUser> {
    const [row] = await this.dataSource.query(
      `INSERT INTO iam_users (email, name, password_hash) VALUES (lower(trim($1)), $2, $3)
       ON CONFLICT (lower(email)) DO UPDATE SET name = EXCLUDED.name,
         password_hash = COALESCE(EXCLUDED.password_hash, iam_users.password_hash)
       RETURNING ${USER_COLUMNS}`,
      [email, name, passwordHash],
    );
    return row;
  }

  async setActive(id: string, active: boolean): Promise<void> {
    await this.dataSource.query('UPDATE iam_users SET active = $2 WHERE id = $1', [id, active]);
  }

  /** Accepts a TOTP time step only if it is newer than the last one used (RFC 6238 §5.2: no replay). */
  async claimTotpStep(id: string, step: number): Promise<boolean> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [, affected] = await this.dataSource.query(
      `UPDATE iam_users SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
      [id, step],
    );
    return affected === 1;
  }

  async setPendingTotp(id: string, secretEncrypted: string): Promise<void> {
    await this.dataSource.query('UPDATE iam_users SET totp_secret_encrypted = $2, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [id, secretEncrypted]);
  }

  async enableTotp(id: string, at: Date): Promise<void> {
    await this.dataSource.query('UPDATE iam_users SET totp_enabled_at = $2 WHERE id = $1 AND totp_secret_encrypted IS NOT NULL', [id, at]);
  }

  async disableTotp(id: string): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query('UPDATE iam_users SET totp_secret_encrypted = NULL, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = $1', [id]);
      await m.query('DELETE FROM iam_recovery_codes WHERE user_id = $1', [id]);
    });
  }

  async replaceRecoveryCodes(id: string, hashes: string[]): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      await m.query('DELETE FROM iam_recovery_codes WHERE user_id = $1', [id]);
      for (const h of hashes) await m.query('INSERT INTO iam_recovery_codes (user_id, code_hash) VALUES ($1, $2)', [id, h]);
    });
  }

  /** Spends a recovery code once; false when unknown or already used. */
  async useRecoveryCode(id: string, hash: string, at: Date): Promise<boolean> {
    const [, affected] = await this.dataSource.query(
      'UPDATE iam_recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL',
      [id, hash, at],
    );
    return affected === 1;
  }

  async ensureWebauthnHandle(id: string, candidate: string): Promise<string> {
    const [[row]] = await this.dataSource.query(
      'UPDATE iam_users SET webauthn_user_handle = COALESCE(webauthn_user_handle, $2) WHERE id = $1 RETURNING webauthn_user_handle',
      [id, candidate],
    );
    return row.webauthn_user_handle;
  }
}
