import { Injectable } from '@nestjs/common';
import { generateToken, randomString, SecretHasher } from '@platform/crypto';
import { Clock } from '@platform/runtime';
import { KbConfig } from '../../config/kb-config';
import { SessionsRepository } from './sessions.repository';

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
    private readonly rows: SessionsRepository,
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
    const id = await this.rows.insert({
      tokenHash: this.hasher.lookupKey(token),
      csrfHash: this.hasher.hash(csrfToken),
      userId,
      tenantId,
      twoFactorPassed: meta.twoFactorPassed,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
      expiresAt,
    });
    return { id, token, csrfToken, expiresAt };
  }

  /** The live session for a cookie value, its idle expiry pushed forward; null when unknown or expired. */
  async resolve(token: string): Promise<SessionRow | null> {
    if (!/^kbs_[0-9A-Za-z]{20,100}$/.test(token)) return null;
    // The clock decides expiry (as `create` does), so tests can move time past the idle limit.
    const now = this.clock.nowMs();
    return this.rows.touchLive(this.hasher.lookupKey(token), new Date(now), new Date(now + this.ttlMs));
  }

  csrfMatches(session: SessionRow, presented: string | undefined): boolean {
    return typeof presented === 'string' && presented.length > 0 && this.hasher.verify(presented, session.csrf_hash);
  }

  async destroy(id: string): Promise<void> {
    await this.rows.delete(id);
  }

  /** Ends every session of a user, e.g. after a password reset; `except` keeps the current one. */
  async destroyAllOf(userId: string, except?: string): Promise<void> {
    await this.rows.deleteAllOf(userId, except);
  }
}
