import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { generateToken, randomString, SecretHasher } from '@platform/crypto';
import { queryRows } from '@platform/database';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { KbConfig } from '../../config/kb-config';

export interface SessionRow {
  id: string;
  user_id: string;
  tenant_id: string;
  csrf_hash: string;
  two_factor_passed: boolean;
  expires_at: Date;
}

export interface NewSession {
  id: string;
  /** Goes to the httpOnly session cookie; only its keyed hash is stored. */
  token: string;
  /** Goes to the readable XSRF-TOKEN cookie; unsafe requests echo it in X-XSRF-TOKEN. */
  csrfToken: string;
  expiresAt: Date;
}

/** Cookie sessions in Postgres (so every replica sees them), with a sliding idle expiry. */
@Injectable()
export class SessionsService {
  private readonly ttlMs: number;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly hasher: SecretHasher,
    config: KbConfig,
    private readonly clock: Clock,
  ) {
    this.ttlMs = config.get('KB_SESSION_TTL_MIN') * 60_000;
  }

  async create(userId: string, tenantId: string, meta: { ip?: string; userAgent?: string; twoFactorPassed: boolean }): Promise<NewSession> {
    const token = generateToken('kbs');
    const csrfToken = randomString(32);
    const expiresAt = new Date(this.clock.nowMs() + this.ttlMs);
    const [row] = await queryRows<{ id: string }>(
      this.db,
      `INSERT INTO kb_sessions (token_hash, csrf_hash, user_id, tenant_id, two_factor_passed, ip, user_agent, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [this.hasher.lookupKey(token), this.hasher.hash(csrfToken), userId, tenantId, meta.twoFactorPassed, meta.ip ?? null, meta.userAgent?.slice(0, 500) ?? null, expiresAt],
    );
    return { id: row.id, token, csrfToken, expiresAt };
  }

  /** The live session for a cookie value, its idle expiry pushed forward; null when unknown or expired. */
  async resolve(token: string): Promise<SessionRow | null> {
    if (!/^kbs_[0-9A-Za-z]{20,100}$/.test(token)) return null;
    // The clock decides expiry (as `create` does), so tests can move time past the idle limit.
    const now = this.clock.nowMs();
    const [row] = await queryRows<SessionRow>(
      this.db,
      `UPDATE kb_sessions SET last_seen_at = $2::timestamptz, expires_at = $3::timestamptz
        WHERE token_hash = $1 AND expires_at > $2::timestamptz
        RETURNING id, user_id, tenant_id, csrf_hash, two_factor_passed, expires_at`,
      [this.hasher.lookupKey(token), new Date(now), new Date(now + this.ttlMs)],
    );
    return row ?? null;
  }

  csrfMatches(session: SessionRow, presented: string | undefined): boolean {
    return typeof presented === 'string' && presented.length > 0 && this.hasher.verify(presented, session.csrf_hash);
  }

  async destroy(id: string): Promise<void> {
    await this.db.query('DELETE FROM kb_sessions WHERE id = $1', [id]);
  }

  /** Ends every session of a user, e.g. after a password reset; `except` keeps the current one. */
  async destroyAllOf(userId: string, except?: string): Promise<void> {
    await this.db.query('DELETE FROM kb_sessions WHERE user_id = $1 AND ($2::bigint IS NULL OR id <> $2)', [userId, except ?? null]);
  }
}
