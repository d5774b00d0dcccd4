import { Injectable } from '@nestjs/common';
import { EnvelopeCipher, SecretHasher } from '@platform/crypto';
import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { toString as qrSvg } from 'qrcode';
import { Clock } from '@platform/runtime';
import { LoginUser, UsersRepository } from '../users/users.repository';

const PERIOD = 30;
/** Codes from one step before or after are accepted (clock drift of the phone). */
const WINDOW = 1;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export interface TotpEnrolment {
  secret: string;
  uri: string;
  qrSvg: string;
}

/**
 * TOTP (RFC 6238, SHA-1, 6 digits, 30 s: what every authenticator app supports). Seeds are
 * encrypted at rest; a code's time step is accepted once; recovery codes are stored as keyed hashes.
 */
@Injectable()
export class TotpService {
  constructor(
    private readonly users: UsersRepository,
    private readonly cipher: EnvelopeCipher,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  private totp(user: { email: string }, secret: Secret): TOTP {
    return new TOTP({ issuer: 'Platform', label: user.email, algorithm: 'SHA1', digits: 6, period: PERIOD, secret });
  }

  private seed(user: LoginUser): Secret | undefined {
    if (!user.totp_secret_encrypted) return undefined;
    return Secret.fromBase32(this.cipher.decrypt(user.totp_secret_encrypted, `iam-totp:${user.id}`));
  }

  /** Starts (or restarts) an enrolment: a new seed, not yet active. */
  async begin(user: LoginUser): Promise<void> {
    const secret = new Secret({ size: 20 });
    await this.users.setPendingTotp(user.id, this.cipher.encrypt(secret.base32, `iam-totp:${user.id}`));
  }

  async enrolment(user: LoginUser): Promise<TotpEnrolment | undefined> {
    const secret = this.seed(user);
    if (!secret || user.totp_enabled_at) return undefined;
    const uri = this.totp(user, secret).toString();
    return { secret: secret.base32, uri, qrSvg: await qrSvg(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 0 }) };
  }

  /** Checks a code against the user's seed (pending or active) and spends its time step. */
  async verify(user: LoginUser, code: string): Promise<boolean> {
    const secret = this.seed(user);
    const digits = code.replace(/\s+/g, '');
    if (!secret || !/^\d{6}$/.test(digits)) return false;
    const now = this.clock.now().getTime();
    const delta = this.totp(user, secret).validate({ token: digits, timestamp: now, window: WINDOW });
    if (delta === null) return false;
    const step = Math.floor(now / 1000 / PERIOD) + delta;
    return this.users.claimTotpStep(user.id, step);
  }

  /** Confirms an enrolment with a first code; returns the recovery codes (shown once). */
  async confirm(user: LoginUser, code: string): Promise<string[] | undefined> {
    if (user.totp_enabled_at || !(await this.verify(user, code))) return undefined;
    await this.users.enableTotp(user.id, this.clock.now());
    const codes = Array.from({ length: 10 }, () => {
      let c = '';
      for (let i = 0; i < 10; i++) c += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
      return `${c.slice(0, 5)}-${c.slice(5)}`;
    });
    await this.users.replaceRecoveryCodes(user.id, codes.map((c) => this.hasher.lookupKey(`recovery:${c}`)));
    return codes;
  }

  async useRecoveryCode(user: LoginUser, code: string): Promise<boolean> {
    const normalized = code.trim().toLowerCase().replace(/\s+/g, '');
    if (!/^[a-z0-9]{5}-[a-z0-9]{5}$/.test(normalized)) return false;
    return this.users.useRecoveryCode(user.id, this.hasher.lookupKey(`recovery:${normalized}`), this.clock.now());
  }

  disable(user: LoginUser): Promise<void> {
    return this.users.disableTotp(user.id);
  }
}
