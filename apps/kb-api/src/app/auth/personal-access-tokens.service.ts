import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { generateToken, SecretHasher } from '@platform/crypto';
import { queryRows } from '@platform/database';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { TOKEN_ABILITIES } from '../identity/rbac';
import { TokenIdentityCache } from './token-identity-cache';

const TOKEN_SHAPE = /^kbp_[0-9A-Za-z]{20,100}$/;

export const TOKEN_LIFETIME_MS = 30 * 86_400_000;

export interface TokenRow {
  id: string;
  user_id: string;
  tenant_id: string;
  abilities: string[];
  expires_at: Date;
}

/** last_used_at is a hint for access reviews, not a log: one write a minute per token is plenty. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Personal access tokens (`kbp_…`): shown once, stored as a keyed hash, 30-day expiry. Expiry and
 * the last-used throttle follow the injected Clock (passed to SQL), not the database's now().
 */
@Injectable()
export class PersonalAccessTokensService {
  /** When this process last wrote each token's last_used_at (keeps the hot path free of writes). */
  private readonly lastMarked = new Map<string, number>();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly hasher: SecretHasher,
    private readonly identities: TokenIdentityCache,
    private readonly clock: Clock,
  ) {}

  /** The token's keyed hash (what the table stores), or null when it cannot be a token. */
  lookupKeyOf(token: string): string | null {
    return TOKEN_SHAPE.test(token) ? this.hasher.lookupKey(token) : null;
  }

  async issue(userId: string, tenantId: string, name: string): Promise<{ token: string; id: string; expiresAt: Date }> {
    const token = generateToken('kbp');
    // Created and expiring by the same clock reading, so the lifetime is exactly TOKEN_LIFETIME_MS.
    const issuedAt = this.clock.nowMs();
    const [row] = await queryRows<{ id: string; expires_at: Date }>(
      this.db,
      `INSERT INTO kb_personal_access_tokens (tenant_id, user_id, name, token_hash, abilities, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz) RETURNING id, expires_at`,
      [tenantId, userId, name, this.hasher.lookupKey(token), JSON.stringify(TOKEN_ABILITIES), new Date(issuedAt), new Date(issuedAt + TOKEN_LIFETIME_MS)],
    );
    return { token, id: row.id, expiresAt: row.expires_at };
  }

  async resolveByLookupKey(key: string): Promise<TokenRow | null> {
    const [row] = await queryRows<TokenRow>(
      this.db,
      `SELECT id, user_id, tenant_id, abilities, expires_at FROM kb_personal_access_tokens WHERE token_hash = $1 AND expires_at > $2::timestamptz`,
      [key, this.clock.now()],
    );
    return row ?? null;
  }

  /**
   * Records that a token was used, at most once a minute per token (the SQL guard covers the other
   * replicas). Never awaited by a request: a failed write costs an access review a minute of detail.
   */
  markUsed(id: string): void {
    const now = this.clock.nowMs();
    if (now - (this.lastMarked.get(id) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    if (this.lastMarked.size > 10_000) this.lastMarked.clear();
    this.lastMarked.set(id, now);
    this.db
      .query(
        `UPDATE kb_personal_access_tokens SET last_used_at = $2::timestamptz WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
        [id, new Date(now)],
      )
      .catch(() => this.lastMarked.delete(id));
  }

  async revoke(id: string): Promise<void> {
    const rows = await queryRows<{ user_id: string }>(this.db, 'DELETE FROM kb_personal_access_tokens WHERE id = $1 RETURNING user_id', [id]);
    for (const { user_id } of rows) await this.identities.invalidateUser(user_id);
  }

  async revokeAllOf(userId: string): Promise<void> {
    await this.db.query('DELETE FROM kb_personal_access_tokens WHERE user_id = $1', [userId]);
    await this.identities.invalidateUser(userId);
  }
}
