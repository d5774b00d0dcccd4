import { Injectable } from '@nestjs/common';
import { SecretHasher } from '@platform/crypto';
import { AttemptBudget, RateCounter } from '@platform/queue';
import { IamConfig } from '../../config/iam-config';

export type ThrottledCheck<T> = T | 'invalid' | 'throttled';

/**
 * Sign-in attempts (password, second factor) counted in Redis (shared by replicas), per account and
 * per client IP, over a fixed window that starts with the first attempt. An attempt is reserved
 * before its credential is checked (the platform's rate counter's attempt budgets), so however many
 * arrive at once, at most the limit are ever checked per window; the rest are refused unchecked.
 * Unknown accounts are counted too, so the throttle itself does not reveal which emails exist. A
 * success clears the account's failures and gives its unit back to the IP, which counts failures only.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly counter: RateCounter,
    private readonly hasher: SecretHasher,
    private readonly config: IamConfig,
  ) {}

  /**
   * Runs `check` under a reserved attempt: `throttled` without running it when the account or the
   * IP is at its limit; otherwise what it found, or `invalid` when it found nothing (counted as a
   * failure, as is a check that throws).
   */
  async attempt<T extends object>(account: string, ip: string, check: () => Promise<T | null>): Promise<ThrottledCheck<T>> {
    const budgets = this.budgets(account, ip);
    if (!(await this.counter.reserve(budgets, this.config.get('IAM_LOGIN_THROTTLE_WINDOW_SEC')))) return 'throttled';
    let found: T | null = null;
    try {
      found = await check();
    } finally {
      await this.counter.settle(budgets, found != null);
    }
    return found ?? 'invalid';
  }

  private budgets(account: string, ip: string): AttemptBudget[] {
    return [
      { key: `login:budget:acct:${this.hasher.lookupKey(account.trim().toLowerCase())}`, limit: this.config.get('IAM_LOGIN_MAX_FAILURES_PER_ACCOUNT'), onSuccess: 'clear' },
      { key: `login:budget:ip:${ip}`, limit: this.config.get('IAM_LOGIN_MAX_FAILURES_PER_IP'), onSuccess: 'refund' },
    ];
  }
}
