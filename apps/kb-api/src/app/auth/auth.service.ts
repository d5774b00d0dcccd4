import { Injectable } from '@nestjs/common';
import { applyRateLimitHeaders, HeaderSink, retryAfterSec } from '@platform/contracts';
import { generateToken, PasswordHasher, SecretHasher } from '@platform/crypto';
import { Clock } from '@platform/runtime';
import { KbConfig } from '../../config/kb-config';
import { KbMessage, KbValidationError } from '../errors/kb-errors';
import { emailKey, UserRow, UsersRepository } from '../identity/users.repository';
import { MailerService } from '../mail/mailer.service';
import { KbPrincipal } from './kb-principal';
import { PasswordResetsRepository } from './password-resets.repository';
import { PersonalAccessTokensService } from './personal-access-tokens.service';
import { SessionsService } from './sessions.service';
import { ThrottleService } from './throttle.service';
import { TokenIdentityCache } from './token-identity-cache';
import { TwoFactorService } from './two-factor.service';

const BAD_CREDENTIALS = 'These credentials do not match our records.';
const RESET_TTL_MS = 60 * 60_000;

export interface Credentials {
  email: string;
  password: string;
  code?: string;
  recovery_code?: string;
}

/** The /api/auth use cases: credential checks with throttling, sessions, tokens, resets, 2FA. */
@Injectable()
export class AuthService {
  private readonly maxAttempts: number;
  private readonly decaySec: number;
  private readonly forgotPerMinute: number;
  private readonly appUrl: string;
  /** Verified when the email is unknown, so both paths cost one argon2 verification. */
  private readonly dummyHash: Promise<string>;

  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly hasher: SecretHasher,
    private readonly throttle: ThrottleService,
    private readonly twoFactor: TwoFactorService,
    private readonly sessions: SessionsService,
    private readonly tokens: PersonalAccessTokensService,
    private readonly mailer: MailerService,
    private readonly resets: PasswordResetsRepository,
    config: KbConfig,
    private readonly identities: TokenIdentityCache,
    private readonly clock: Clock,
  ) {
    this.maxAttempts = config.get('KB_LOGIN_MAX_ATTEMPTS');
    this.decaySec = config.get('KB_LOGIN_DECAY_SEC');
    this.forgotPerMinute = config.get('KB_FORGOT_PER_MINUTE');
    this.appUrl = config.get('KB_APP_URL');
    this.dummyHash = passwords.hash(generateToken('dummy'));
  }

  /**
   * Checks credentials (and the second factor when enrolled) for login or token issue. Failures are
   * counted per email and IP; past the limit every attempt answers 429 in the validation shape.
   * Unknown email, wrong password and inactive account give the same answer (no enumeration).
   * Every answer carries the bucket's RateLimit headers: the quota is failed attempts, so a
   * success resets it to whole.
   */
  async checkCredentials(bucket: 'login' | 'token', c: Credentials, ip: string, res: HeaderSink): Promise<UserRow> {
    const key = [emailKey(c.email), ip];
    const policy = { name: bucket, quota: this.maxAttempts, windowSec: this.decaySec };
    const report = (count: number, resetSec: number, exceeded = false) =>
      applyRateLimitHeaders(res, policy, { remaining: this.maxAttempts - count, resetSec: count === 0 ? this.decaySec : resetSec }, exceeded);
    const seen = await this.throttle.peek(bucket, key, this.decaySec);
    if (seen.count >= this.maxAttempts) {
      report(seen.count, seen.resetSec, true);
      const wait = retryAfterSec({ remaining: 0, resetSec: seen.resetSec });
      throw new KbValidationError({ email: [`Too many attempts. Please try again in ${wait} seconds.`] }, 429);
    }
    const failed = async () => {
      const now = await this.throttle.take(bucket, key, this.decaySec);
      report(now.count, now.resetSec);
    };
    const user = await this.users.findByEmail(c.email);
    const ok = await this.passwords.verify(c.password, user?.password_hash ?? (await this.dummyHash));
    if (!user || !ok || !user.active) {
      await failed();
      throw new KbValidationError({ email: [BAD_CREDENTIALS] });
    }
    if (this.twoFactor.isEnabled(user)) {
      if (!c.code && !c.recovery_code) {
        report(seen.count, seen.resetSec);
        throw new KbValidationError({ code: ['two_factor_required'] });
      }
      if (!(await this.twoFactor.verify(user, c))) {
        await failed();
        throw new KbValidationError({ code: ['The two-factor code is invalid.'] });
      }
    }
    await this.throttle.clear(bucket, key);
    report(0, this.decaySec);
    return user;
  }

  async issueToken(user: UserRow, deviceName: string | undefined) {
    const { token } = await this.tokens.issue(user.id, user.tenant_id, deviceName?.trim() || 'desktop-demo');
    return { token, token_type: 'Bearer' as const, user: publicUser(user) };
  }

  /** Always succeeds from the caller's view (204), so the answer never tells whether the email exists. */
  async forgotPassword(email: string, ip: string): Promise<void> {
    const count = await this.throttle.hit('forgot', [ip], 60);
    if (count > this.forgotPerMinute) throw new KbValidationError({ email: ['Too many password reset requests. Please wait a minute.'] }, 429, { 'Retry-After': '60' });
    const user = await this.users.findByEmail(email);
    if (!user?.active) return;
    const token = generateToken('kbr');
    await this.resets.insert(user.id, this.hasher.lookupKey(token), new Date(this.clock.nowMs() + RESET_TTL_MS));
    const link = `${this.appUrl.replace(/\/$/, '')}/reset-password?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
    await this.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: `Someone asked to reset the password of ${user.email}.\n\nReset it within 60 minutes: ${link}\n\nIf this was not you, ignore this message.`,
    });
  }

  /** One use per link; a reset ends every session and token of the account. */
  async resetPassword(input: { token: string; email: string; password: string; password_confirmation: string }): Promise<void> {
    if (input.password !== input.password_confirmation) throw new KbValidationError({ password: ['The password field confirmation does not match.'] });
    const user = await this.users.findByEmail(input.email);
    const reset = user ? await this.resets.consume(user.id, this.hasher.lookupKey(input.token), this.clock.now()) : false;
    if (!user || !reset) throw new KbValidationError({ email: ['This password reset token is invalid.'] });
    await this.users.updatePassword(user.id, await this.passwords.hash(input.password));
    await this.sessions.destroyAllOf(user.id);
    await this.tokens.revokeAllOf(user.id);
  }

  /**
   * A personal access token's profile comes from TokenIdentityCache (the token itself authenticates
   * through it too), whichever path the request took; other callers read it fresh.
   */
  async me(principal: KbPrincipal) {
    const profile =
      principal.kind === 'token' && principal.userId
        ? await this.identities.get(`me:${principal.userId}:${principal.tenantId}`, async () => {
            const loaded = await this.profileOf(principal);
            return loaded && { value: loaded, userId: principal.userId! };
          })
        : await this.profileOf(principal);
    if (!profile) throw new KbMessage(401, 'Unauthenticated.');
    return {
      user: profile.user,
      tenant_id: principal.tenantId,
      roles: principal.roles,
      permissions: principal.permissions,
      platform_admin: principal.platformAdmin,
      projects: profile.projects,
      teams: profile.teams,
      preferences: profile.preferences,
      features: {},
      two_factor_enabled: profile.twoFactorEnabled,
      auth: { kind: principal.kind, abilities: principal.abilities },
    };
  }

  /** What /me shows of the user, and only that (so a cached profile holds no hashes or secrets). */
  private async profileOf(principal: KbPrincipal) {
    const user = principal.userId ? await this.users.findById(principal.userId) : null;
    if (!user) return null;
    const [projects, teams] = await Promise.all([
      this.users.memberships(user.id, principal.tenantId),
      this.users.teams(user.id, user.tenant_id),
    ]);
    const prefs = user.preferences as Record<string, unknown>;
    return {
      user: { ...publicUser(user), email_verified_at: user.email_verified_at?.toISOString() ?? null },
      projects,
      teams,
      preferences: { theme: prefs['theme'] ?? 'system', density: prefs['density'] ?? 'comfortable', language: prefs['language'] ?? 'en' },
      twoFactorEnabled: this.twoFactor.isEnabled(user),
    };
  }

  async requireUser(principal: KbPrincipal): Promise<UserRow> {
    const user = principal.userId ? await this.users.findById(principal.userId) : null;
    if (!user) throw new KbMessage(401, 'Unauthenticated.');
    return user;
  }
}

export const publicUser = (u: UserRow) => ({ id: Number(u.id), name: u.name, email: u.email });
