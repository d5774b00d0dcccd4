import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import type { TokenRow } from './personal-access-tokens.service';

/**
 * kb_personal_access_tokens. A bearer token is looked up by its keyed hash before any tenant is
 * known (the row names its tenant), so these statements are keyed by hash, token or user.
 */
@Injectable()
export class PersonalAccessTokensRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(t: { tenantId: string; userId: string; name: string; tokenHash: string; abilities: string[]; createdAt: Date; expiresAt: Date }): Promise<{ id: string; expires_at: Date }> {
    const [row] = await queryRows<{ id: string; expires_at: Date }>(
      this.db,
      `INSERT INTO kb_personal_access_tokens (tenant_id, user_id, name, token_hash, abilities, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz) RETURNING id, expires_at`,
      [t.tenantId, t.userId, t.name, t.tokenHash, JSON.stringify(t.abilities), t.createdAt, t.expiresAt],
    );
    return row;
  }

  /** The token with this hash that is still live at `now`, or null. */
  async findLive(tokenHash: string, now: Date): Promise<TokenRow | null> {
    const [row] = await queryRows<TokenRow>(
      this.db,
      `SELECT id, user_id, tenant_id, abilities, expires_at FROM kb_personal_access_tokens WHERE token_hash = $1 AND expires_at > $2::timestamptz`,
      [tokenHash, now],
    );
    return row ?? null;
  }

  /** Stamps last_used_at, unless another replica did within the minute before `now`. */
  async markUsed(id: string, now: Date): Promise<void> {
    await this.db.query(
      `UPDATE kb_personal_access_tokens SET last_used_at = $2::timestamptz WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
      [id, now],
    );
  }

  /** Deletes a token; the user it belonged to, if it existed. */
  async delete(id: string): Promise<string[]> {
    const rows = await queryRows<{ user_id: string }>(this.db, 'DELETE FROM kb_personal_access_tokens WHERE id = $1 RETURNING user_id', [id]);
    return rows.map((r) => r.user_id);
  }

  async deleteAllOf(userId: string): Promise<void> {
    await this.db.query('DELETE FROM kb_personal_access_tokens WHERE user_id = $1', [userId]);
  }
}
