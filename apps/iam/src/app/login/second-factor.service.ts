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
    if (!user.totp_enabled_at || !user.active) return 'invalid';
    // Reserved before the code is checked, as for passwords: a burst cannot try more codes than the limit.
    return this.throttle.attempt(`second-factor:${user.id}`, ip, async () => {
      if (await this.totp.verify(user, code)) return { amr: ['otp'] };
      if (await this.totp.useRecoveryCode(user, code)) return { amr: [] };
      return null;
    });
  }
}
