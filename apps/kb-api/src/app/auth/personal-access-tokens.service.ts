import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { generateToken, SecretHasher } from '@platform/crypto';
import { queryRows } from '@platform/database';
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

/** Personal access tokens (`kbp_…`): shown once, stored as a keyed hash, 30-day expiry. */
@Injectable()
export class PersonalAccessTokensService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly hasher: SecretHasher,
    private readonly identities: TokenIdentityCache,
  ) {}

  /** The token's keyed hash (what the table stores), or null when it cannot be a token. */
  lookupKeyOf(token: string): string | null {
    return TOKEN_SHAPE.test(token) ? this.hasher.lookupKey(token) : null;
  }

  async issue(userId: string, tenantId: string, name: string): Promise<{ token: string; id: string; expiresAt: Date }> {
    const token = generateToken('kbp');
    const [row] = await queryRows<{ id: string; expires_at: Date }>(
      this.db,
      `INSERT INTO kb_personal_access_tokens (tenant_id, user_id, name, token_hash, abilities, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond') RETURNING id, expires_at`,
      [tenantId, userId, name, this.hasher.lookupKey(token), JSON.stringify(TOKEN_ABILITIES), TOKEN_LIFETIME_MS],
    );
    return { token, id: row.id, expiresAt: row.expires_at };
  }

  async resolve(token: string): Promise<TokenRow | null> {
    const key = this.lookupKeyOf(token);
    return key ? this.resolveByLookupKey(key) : null;
  }

  async resolveByLookupKey(key: string): Promise<TokenRow | null> {
    const [row] = await queryRows<TokenRow>(
      this.db,
      `SELECT id, user_id, tenant_id, abilities, expires_at FROM kb_personal_access_tokens WHERE token_hash = $1 AND expires_at > now()`,
      [key],
    );
    return row ?? null;
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
