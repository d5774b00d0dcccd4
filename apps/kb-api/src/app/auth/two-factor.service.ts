import { Inject, Injectable } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import { EnvelopeCipher, generateToken, SecretHasher } from '@platform/crypto';
import { Clock } from '@platform/runtime';
import type Redis from 'ioredis';
import { Secret, TOTP } from 'otpauth';
import { UserRow, UsersRepository } from '../identity/users.repository';
import { TokenIdentityCache } from './token-identity-cache';

const ISSUER = 'Knowledge base';
const CONTEXT = 'kb.totp';
const RECOVERY_CODES = 8;

/** TOTP second factor (RFC 6238, 30 s, 6 digits, ±1 step) with single-use recovery codes. */
@Injectable()
export class TwoFactorService {
  constructor(
    private readonly users: UsersRepository,
    private readonly cipher: EnvelopeCipher,
    private readonly hasher: SecretHasher,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    private readonly identities: TokenIdentityCache,
    private readonly clock: Clock,
  ) {}

  /** The user's second factor shows in /api/auth/me, which tokens may serve from the cache. */
  private async save(userId: string, fields: Parameters<UsersRepository['setTwoFactor']>[1]): Promise<void> {
    await this.users.setTwoFactor(userId, fields);
    await this.identities.invalidateUser(userId);
  }

  isEnabled(user: UserRow): boolean {
    return user.two_factor_secret !== null && user.two_factor_confirmed_at !== null;
  }

  /** Starts enrolment: a new secret (encrypted at rest) and recovery codes, shown once; active after confirm(). */
  async begin(user: UserRow): Promise<{ secret: string; otpauth_url: string; recovery_codes: string[] }> {
    const secret = new Secret({ size: 20 });
    const codes = Array.from({ length: RECOVERY_CODES }, () => generateToken('rc', 60).slice(3));
    await this.save(user.id, {
      secret: this.cipher.encrypt(secret.base32, `${CONTEXT}:${user.id}`),
      confirmedAt: null,
      recoveryCodes: codes.map((c) => this.hasher.lookupKey(c)),
    });
    return { secret: secret.base32, otpauth_url: this.totp(user, secret.base32).toString(), recovery_codes: codes };
  }

  async confirm(user: UserRow, code: string): Promise<boolean> {
    if (!user.two_factor_secret || !(await this.checkTotp(user, code))) return false;
    await this.save(user.id, { secret: user.two_factor_secret, confirmedAt: this.clock.now(), recoveryCodes: user.two_factor_recovery_codes });
    return true;
  }

  async disable(user: UserRow): Promise<void> {
    await this.save(user.id, { secret: null, confirmedAt: null, recoveryCodes: [] });
  }

  /** A current TOTP code (each accepted once) or an unused recovery code (consumed). */
  async verify(user: UserRow, input: { code?: string; recovery_code?: string }): Promise<boolean> {
    if (input.code) return this.checkTotp(user, input.code);
    if (input.recovery_code) return this.users.consumeRecoveryCode(user.id, this.hasher.lookupKey(input.recovery_code.trim()));
    return false;
  }

  private totp(user: UserRow, base32: string): TOTP {
    return new TOTP({ issuer: ISSUER, label: user.email, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(base32) });
  }

  private async checkTotp(user: UserRow, code: string): Promise<boolean> {
    if (!user.two_factor_secret || !/^\d{6}$/.test(code)) return false;
    const base32 = this.cipher.decrypt(user.two_factor_secret, `${CONTEXT}:${user.id}`);
    if (this.totp(user, base32).validate({ token: code, window: 1 }) === null) return false;
    // A code seen within its validity window is refused the second time (no replay).
    const fresh = await this.redis.set(`kb:totp-used:${user.id}:${code}`, '1', 'EX', 120, 'NX');
    return fresh === 'OK';
  }
}
