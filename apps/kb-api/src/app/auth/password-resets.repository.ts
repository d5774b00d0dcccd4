import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';

/** kb_password_resets: one-use reset links, stored as keyed hashes, keyed by user (resets come before sign-in). */
@Injectable()
export class PasswordResetsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.query('INSERT INTO kb_password_resets (user_id, token_hash, expires_at) VALUES ($1, $2, $3)', [userId, tokenHash, expiresAt]);
  }

  /** Marks the user's unused reset with this hash used at `now`, if it is still live then; false when there is none. */
  async consume(userId: string, tokenHash: string, now: Date): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      `UPDATE kb_password_resets SET used_at = $3::timestamptz WHERE token_hash = $1 AND user_id = $2 AND used_at IS NULL AND expires_at > $3::timestamptz RETURNING id`,
      [tokenHash, userId, now],
    );
    return rows.length > 0;
  }
}
