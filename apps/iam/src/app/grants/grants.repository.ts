import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface AuthorizationCodeRow {
  code_hash: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: string[];
  code_challenge: string | null;
  nonce: string | null;
  auth_time: Date;
  acr: string;
  amr: string[];
  /** RFC 8707 resources the code was issued for (empty: the default audience). */
  resources: string[];
  /** RFC 9449 §10: thumbprint of the key the code must be redeemed with. */
  dpop_jkt: string | null;
  expires_at: Date;
  consumed_at: Date | null;
}

export interface RefreshTokenRow {
  id: string;
  grant_id: string;
  client_id: string;
  payload_encrypted: string;
  expires_at: Date;
  rotated_at: Date | null;
  grant_revoked_at: Date | null;
  /** RFC 9449 §5: a public client's refresh token works only with a proof of this key. */
  dpop_jkt: string | null;
  /** The access token issued with it, revoked when it rotates (null for tokens from before this was kept). */
  access_token_jti: string | null;
}

/** 'foreign': it exists but belongs to another client (left untouched). */
export type ConsumeResult<T> =
  | { status: 'ok'; row: T }
  | { status: 'reused'; row: T }
  | { status: 'foreign' }
  | { status: 'unknown' };

/** 'wrong_key': a bound refresh token presented without its key's proof (left untouched, so a thief cannot spend it). */
export type RotateResult = ConsumeResult<RefreshTokenRow> | { status: 'wrong_key' };

const REFRESH_COLUMNS = 't.id, t.grant_id, t.client_id, t.payload_encrypted, t.expires_at, t.rotated_at, g.revoked_at AS grant_revoked_at, t.dpop_jkt, t.access_token_jti';

/**
 * Codes, refresh tokens and the grants they belong to. Single use is a conditional UPDATE, so of
 * two concurrent exchanges exactly one sees its row change; the other learns it lost.
 */
@Injectable()
export class GrantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async createGrant(clientId: string, userId: string): Promise<string> {
    const [row] = await this.dataSource.query('INSERT INTO oauth_grants (client_id, user_id) VALUES ($1, $2) RETURNING id', [clientId, userId]);
    return row.id;
  }

  async revokeGrant(grantId: string, reason: string, now: Date): Promise<void> {
    await this.dataSource.query('UPDATE oauth_grants SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL', [grantId, now, reason]);
  }

  async isGrantRevoked(grantId: string): Promise<boolean> {
    const [row] = await this.dataSource.query('SELECT revoked_at FROM oauth_grants WHERE id = $1', [grantId]);
    return !row || row.revoked_at !== null;
  }

  async insertCode(c: Omit<AuthorizationCodeRow, 'consumed_at'>): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO oauth_authorization_codes
        (code_hash, grant_id, client_id, user_id, redirect_uri, scopes, code_challenge, nonce, auth_time, acr, amr, resources, dpop_jkt, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [c.code_hash, c.grant_id, c.client_id, c.user_id, c.redirect_uri, c.scopes, c.code_challenge, c.nonce, c.auth_time, c.acr, c.amr, c.resources, c.dpop_jkt, c.expires_at],
    );
  }

  async consumeCode(codeHash: string, clientId: string, now: Date): Promise<ConsumeResult<AuthorizationCodeRow>> {
    const [updated] = await this.dataSource.query(
      'UPDATE oauth_authorization_codes SET consumed_at = $3 WHERE code_hash = $1 AND client_id = $2 AND consumed_at IS NULL RETURNING *',
      [codeHash, clientId, now],
    );
    if (updated?.[0]) return { status: 'ok', row: updated[0] };
    const existing = await this.findCode(codeHash);
    if (!existing) return { status: 'unknown' };
    return existing.client_id === clientId ? { status: 'reused', row: existing } : { status: 'foreign' };
  }

  /** The code as stored, used or not (nothing changes). */
  async findCode(codeHash: string): Promise<AuthorizationCodeRow | null> {
    const [row] = await this.dataSource.query('SELECT * FROM oauth_authorization_codes WHERE code_hash = $1', [codeHash]);
    return row ?? null;
  }

  async insertRefreshToken(r: {
    tokenHash: string;
    grantId: string;
    clientId: string;
    payloadEncrypted: string;
    expiresAt: Date;
    dpopJkt?: string;
    accessTokenJti: string;
  }): Promise<string> {
    const [row] = await this.dataSource.query(
      `INSERT INTO oauth_refresh_tokens (token_hash, grant_id, client_id, payload_encrypted, expires_at, dpop_jkt, access_token_jti)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [r.tokenHash, r.grantId, r.clientId, r.payloadEncrypted, r.expiresAt, r.dpopJkt ?? null, r.accessTokenJti],
    );
    return row.id;
  }

  /**
   * Marks the token used; 'reused' when it had already been rotated (or lost a concurrent race).
   * A token bound to a DPoP key rotates only when `jkt` names that key.
   */
  async rotateRefreshToken(tokenHash: string, clientId: string, now: Date, jkt?: string): Promise<RotateResult> {
    const [updated] = await this.dataSource.query(
      `UPDATE oauth_refresh_tokens t SET rotated_at = $3
         FROM oauth_grants g
        WHERE t.token_hash = $1 AND t.client_id = $2 AND t.rotated_at IS NULL AND g.id = t.grant_id
          AND (t.dpop_jkt IS NULL OR t.dpop_jkt = $4)
        RETURNING ${REFRESH_COLUMNS}`,
      [tokenHash, clientId, now, jkt ?? null],
    );
    if (updated?.[0]) return { status: 'ok', row: updated[0] };
    const existing = await this.findRefreshToken(tokenHash);
    if (!existing) return { status: 'unknown' };
    if (existing.client_id !== clientId) return { status: 'foreign' };
    if (existing.rotated_at === null && existing.dpop_jkt !== null && existing.dpop_jkt !== jkt) return { status: 'wrong_key' };
    return { status: 'reused', row: existing };
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | null> {
    const [row] = await this.dataSource.query(
      `SELECT ${REFRESH_COLUMNS} FROM oauth_refresh_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = $1`,
      [tokenHash],
    );
    return row ?? null;
  }
}
