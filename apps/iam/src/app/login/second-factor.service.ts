import { Injectable } from '@nestjs/common';
import { LoginUser } from '../users/users.repository';
import { LoginThrottle } from './login-throttle.service';
import { TotpService } from './totp.service';

export type SecondFactorResult = 'invalid' | 'throttled' | { amr: string[] };

/** A TOTP code or a recovery code for a user who already proved the first factor; throttled per account. */
@Injectable()
export class SecondFactorService {
  constructor(
    private readonly totp: TotpService,
    private readonly throttle: LoginThrottle,
  ) {}

  async check(user: LoginUser, code: string, ip: string): Promise<SecondFactorResult> {
    const account = `second-factor:${user.id}`;
    if (!user.totp_enabled_at || !user.active) return 'invalid';
    if (await this.throttle.blocked(account, ip)) return 'throttled';
    if (await this.totp.verify(user, code)) {
      await this.throttle.succeed(account);
      return { amr: ['otp'] };
    }
    if (await this.totp.useRecoveryCode(user, code)) {
      await this.throttle.succeed(account);
      return { amr: [] };
    }
    await this.throttle.fail(account, ip);
    return 'invalid';
  }
}
