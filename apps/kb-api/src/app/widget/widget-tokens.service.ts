import { Injectable } from '@nestjs/common';
import { generateToken, SecretHasher } from '@platform/crypto';
import { randomUUID } from 'node:crypto';
import { SESSION_TOKEN_TTL_MS } from './widget-catalog';
import { WidgetKeyRow } from './widget-keys.repository';
import { WidgetTokenKind, WidgetTokenRow, WidgetTokensRepository } from './widget-tokens.repository';

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
    private readonly tokens: WidgetTokensRepository,
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
    // Each mint prunes a bounded batch of long-expired tokens, so the table stays small without a job.
    await this.tokens.pruneExpired();
    const token = generateToken(PREFIX[kind]);
    const row = await this.tokens.insert({
      tenantId: key.tenant_id,
      keyId: key.id,
      kind,
      tokenHash: this.hasher.lookupKey(token),
      identity: t.identity,
      origin: t.origin,
      sessionId: t.sessionId ?? null,
      locale: t.locale ?? null,
      identityCredentialVersion: kind === 'user' ? key.identity_credential_version : null,
      ttlMs: SESSION_TOKEN_TTL_MS,
    });
    return { token, expires_at: row.expires_at };
  }

  /** A live, unconsumed token, without using it up (so a refused request leaves it valid). */
  async peek(token: string): Promise<WidgetTokenRow | null> {
    if (!SHAPE.test(token)) return null;
    return this.tokens.findLive(this.hasher.lookupKey(token));
  }

  /** Uses a session token up; false when another request got there first (or it just expired). */
  consume(id: string): Promise<boolean> {
    return this.tokens.consume(id);
  }
}
