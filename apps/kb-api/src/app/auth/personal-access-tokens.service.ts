import { Injectable } from '@nestjs/common';
import { generateToken, SecretHasher } from '@platform/crypto';
import { Clock } from '@platform/runtime';
import { TOKEN_ABILITIES } from '../identity/rbac';
import { PersonalAccessTokensRepository } from './personal-access-tokens.repository';
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
    private readonly rows: PersonalAccessTokensRepository,
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
    const row = await this.rows.insert({
      tenantId,
      userId,
      name,
      tokenHash: this.hasher.lookupKey(token),
      abilities: [...TOKEN_ABILITIES],
      createdAt: new Date(issuedAt),
      expiresAt: new Date(issuedAt + TOKEN_LIFETIME_MS),
    });
    return { token, id: row.id, expiresAt: row.expires_at };
  }

  async resolveByLookupKey(key: string): Promise<TokenRow | null> {
    return this.rows.findLive(key, this.clock.now());
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
    this.rows.markUsed(id, new Date(now)).catch(() => this.lastMarked.delete(id));
  }

  async revoke(id: string): Promise<void> {
    for (const userId of await this.rows.delete(id)) await this.identities.invalidateUser(userId);
  }

  async revokeAllOf(userId: string): Promise<void> {
    await this.rows.deleteAllOf(userId);
    await this.identities.invalidateUser(userId);
  }
}
