import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import type { SessionRow } from './sessions.service';

/**
 * kb_sessions. A cookie is looked up by its keyed hash before any tenant is known (the session
 * names its tenant), so these statements are keyed by hash, session or user, not by tenant.
 */
@Injectable()
export class SessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(s: { tokenHash: string; csrfHash: string; userId: string; tenantId: string; twoFactorPassed: boolean; ip: string | null; userAgent: string | null; expiresAt: Date }): Promise<string> {
    const [row] = await queryRows<{ id: string }>(
      this.db,
      `INSERT INTO kb_sessions (token_hash, csrf_hash, user_id, tenant_id, two_factor_passed, ip, user_agent, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [s.tokenHash, s.csrfHash, s.userId, s.tenantId, s.twoFactorPassed, s.ip, s.userAgent, s.expiresAt],
    );
    return row.id;
  }

  /** The session live at `now` for a token hash, its idle expiry moved to `expiresAt`; null when unknown or expired. */
  async touchLive(tokenHash: string, now: Date, expiresAt: Date): Promise<SessionRow | null> {
    const [row] = await queryRows<SessionRow>(
      this.db,
      `UPDATE kb_sessions SET last_seen_at = $2::timestamptz, expires_at = $3::timestamptz
        WHERE token_hash = $1 AND expires_at > $2::timestamptz
        RETURNING id, user_id, tenant_id, csrf_hash, two_factor_passed, expires_at`,
      [tokenHash, now, expiresAt],
    );
    return row ?? null;
  }

  async delete(id: string): Promise<void> {
    await this.db.query('DELETE FROM kb_sessions WHERE id = $1', [id]);
  }

  /** Every session of a user but `except` (when given). */
  async deleteAllOf(userId: string, except?: string): Promise<void> {
    await this.db.query('DELETE FROM kb_sessions WHERE user_id = $1 AND ($2::bigint IS NULL OR id <> $2)', [userId, except ?? null]);
  }
}
