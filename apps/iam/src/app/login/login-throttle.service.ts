import { Injectable } from '@nestjs/common';
import { SecretHasher } from '@platform/crypto';
import { RateCounter } from '@platform/queue';
import { IamConfig } from '../../config/iam-config';

/**
 * Failed sign-in attempts counted in Redis (shared by replicas), per account and per client IP,
 * over a fixed window that starts with the first failure (the platform's RateCounter). Unknown
 * accounts are counted too, so the throttle itself does not reveal which emails exist.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly counter: RateCounter,
    private readonly hasher: SecretHasher,
    private readonly config: IamConfig,
  ) {}

  private keys(account: string, ip: string): [string, string] {
    return [`login:fail:acct:${this.hasher.lookupKey(account.trim().toLowerCase())}`, `login:fail:ip:${ip}`];
  }

  async blocked(account: string, ip: string): Promise<boolean> {
    const window = this.windowSec();
    const [acct, byIp] = this.keys(account, ip);
    const [a, i] = await Promise.all([this.counter.peek(acct, window), this.counter.peek(byIp, window)]);
    return a.count >= this.config.get('IAM_LOGIN_MAX_FAILURES_PER_ACCOUNT') || i.count >= this.config.get('IAM_LOGIN_MAX_FAILURES_PER_IP');
  }

  async fail(account: string, ip: string): Promise<void> {
    const window = this.windowSec();
    const [acct, byIp] = this.keys(account, ip);
    // The expiry is set only with the first failure, so steady failures cannot keep a lock alive forever.
    await Promise.all([this.counter.take(acct, window), this.counter.take(byIp, window)]);
  }

  async succeed(account: string): Promise<void> {
    await this.counter.clear(this.keys(account, '')[0]);
  }

  private windowSec(): number {
    return this.config.get('IAM_LOGIN_THROTTLE_WINDOW_SEC');
  }
}
