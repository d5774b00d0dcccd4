import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { generateToken, SecretHasher } from '@platform/crypto';
import { queryRows } from '@platform/database';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SESSION_TOKEN_TTL_MS } from './widget-catalog';
import { WidgetKeyRow } from './widget-keys.repository';

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

const PREFIX: Record<WidgetTokenKind, string> = { session: 'wt', user: 'wu' };
const SHAPE = /^w[tu]_[0-9A-Za-z]{20,100}$/;

/**
 * Tokens minted for the widget: `wt_…` session tokens (single use, bound to the origin that asked)
 * and `wu_…` user tokens for a host's signed-in user (valid until expiry or until the key's
 * identity credentials change). Only keyed hashes are stored.
 */
@Injectable()
export class WidgetTokensService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly hasher: SecretHasher,
  ) {}

  /** The pseudonymous identity of a subject on a key: a keyed hash, so it cannot be forged or reversed. */
  identityOf(keyId: string, subject: string): string {
    return this.hasher.lookupKey(`widget-identity:${keyId}:${subject}`);
  }

  /** A fresh subject, for a browser that has no identity of its own yet. */
  anonymousIdentity(keyId: string): string {
    return this.identityOf(keyId, `anonymous:${randomUUID()}`);
  }

  async mint(key: WidgetKeyRow, kind: WidgetTokenKind, t: { identity: string; origin: string | null; sessionId?: string | null; locale?: string | null }) {
    await this.prune();
    const token = generateToken(PREFIX[kind]);
    const [row] = await queryRows<{ expires_at: Date }>(
      this.db,
      `INSERT INTO kb_widget_tokens (tenant_id, key_id, kind, token_hash, identity, origin, session_id, locale, identity_credential_version, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + $10 * interval '1 millisecond') RETURNING expires_at`,
      [key.tenant_id, key.id, kind, this.hasher.lookupKey(token), t.identity, t.origin, t.sessionId ?? null, t.locale ?? null, kind === 'user' ? key.identity_credential_version : null, SESSION_TOKEN_TTL_MS],
    );
    return { token, expires_at: row.expires_at };
  }

  /** A live, unconsumed token, without using it up (so a refused request leaves it valid). */
  async peek(token: string): Promise<WidgetTokenRow | null> {
    if (!SHAPE.test(token)) return null;
    const [row] = await queryRows<WidgetTokenRow>(
      this.db,
      `SELECT id, key_id, kind, identity, origin, session_id, locale, identity_credential_version, expires_at
       FROM kb_widget_tokens WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > now()`,
      [this.hasher.lookupKey(token)],
    );
    return row ?? null;
  }

  /** Uses a session token up; false when another request got there first (or it just expired). */
  async consume(id: string): Promise<boolean> {
    const rows = await queryRows(this.db, 'UPDATE kb_widget_tokens SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL AND expires_at > now() RETURNING id', [id]);
    return rows.length > 0;
  }

  /** Each mint prunes a bounded batch of long-expired tokens, so the table stays small without a job. */
  private async prune(): Promise<void> {
    await this.db.query(`DELETE FROM kb_widget_tokens WHERE id IN (SELECT id FROM kb_widget_tokens WHERE expires_at < now() - interval '1 day' LIMIT 100)`);
  }
}
