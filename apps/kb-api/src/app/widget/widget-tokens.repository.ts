import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';

export type WidgetTokenKind = 'session' | 'user';

export interface WidgetTokenRow {
  id: string;
  key_id: string;
  kind: WidgetTokenKind;
  identity: string;
  origin: string | null;
  session_id: string | null;
  locale: string | null;
  identity_credential_version: number | null;
  expires_at: Date;
}

export interface NewWidgetToken {
  tenantId: string;
  keyId: string;
  kind: WidgetTokenKind;
  tokenHash: string;
  identity: string;
  origin: string | null;
  sessionId: string | null;
  locale: string | null;
  identityCredentialVersion: number | null;
  ttlMs: number;
}

/**
 * kb_widget_tokens, found by the keyed hash of the token. A token is looked up before its key (the
 * token names the key), so these statements run with the owner's reach; the tenant is written on
 * insert and the key the token belongs to is checked by the caller. Expiry is decided by the
 * injected Clock's time, passed in, not the database's now(), so tests can move time.
 */
@Injectable()
export class WidgetTokensRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  /** Stores a token's hash; it expires ttlMs after the clock's now. */
  async insert(t: NewWidgetToken): Promise<{ expires_at: Date }> {
    const [row] = await queryRows<{ expires_at: Date }>(
      this.db,
      `INSERT INTO kb_widget_tokens (tenant_id, key_id, kind, token_hash, identity, origin, session_id, locale, identity_credential_version, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::timestamptz) RETURNING expires_at`,
      [t.tenantId, t.keyId, t.kind, t.tokenHash, t.identity, t.origin, t.sessionId, t.locale, t.identityCredentialVersion, new Date(this.clock.nowMs() + t.ttlMs)],
    );
    return row;
  }

  /** A live, unconsumed token by its hash. */
  async findLive(tokenHash: string): Promise<WidgetTokenRow | null> {
    const [row] = await queryRows<WidgetTokenRow>(
      this.db,
      `SELECT id, key_id, kind, identity, origin, session_id, locale, identity_credential_version, expires_at
       FROM kb_widget_tokens WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2::timestamptz`,
      [tokenHash, this.clock.now()],
    );
    return row ?? null;
  }

  /** Marks a live token consumed; false when another request got there first (or it just expired). */
  async consume(id: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      'UPDATE kb_widget_tokens SET consumed_at = $2::timestamptz WHERE id = $1 AND consumed_at IS NULL AND expires_at > $2::timestamptz RETURNING id',
      [id, this.clock.now()],
    );
    return rows.length > 0;
  }

  /** Deletes a bounded batch of tokens expired for over a day. */
  async pruneExpired(): Promise<void> {
    await this.db.query(
      `DELETE FROM kb_widget_tokens WHERE id IN (SELECT id FROM kb_widget_tokens WHERE expires_at < $1::timestamptz - interval '1 day' LIMIT 100)`,
      [this.clock.now()],
    );
  }
}
