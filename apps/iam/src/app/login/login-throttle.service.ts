import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { REDIS_CLIENT } from '@platform/contracts';
import { SecretHasher } from '@platform/crypto';
import type Redis from 'ioredis';

/**
 * Failed sign-in attempts counted in Redis (shared by replicas), per account and per client IP,
 * over a sliding-enough fixed window. Unknown accounts are counted too, so the throttle itself
 * does not reveal which emails exist.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    private readonly hasher: SecretHasher,
    private readonly config: ConfigService,
  ) {}

  private keys(account: string, ip: string): [string, string] {
    return [`login:fail:acct:${this.hasher.lookupKey(account.trim().toLowerCase())}`, `login:fail:ip:${ip}`];
  }

  async blocked(account: string, ip: string): Promise<boolean> {
    const [acct, byIp] = this.keys(account, ip);
    const [a, i] = await this.redis.mget(acct, byIp);
    return Number(a ?? 0) >= this.config.get<number>('IAM_LOGIN_MAX_FAILURES_PER_ACCOUNT', 5) || Number(i ?? 0) >= this.config.get<number>('IAM_LOGIN_MAX_FAILURES_PER_IP', 50);
  }

  async fail(account: string, ip: string): Promise<void> {
    const window = this.config.get<number>('IAM_LOGIN_THROTTLE_WINDOW_SEC', 900);
    const [acct, byIp] = this.keys(account, ip);
    // The expiry is set only with the first failure, so steady failures cannot keep a lock alive forever.
    await this.redis.multi().incr(acct).expire(acct, window, 'NX').incr(byIp).expire(byIp, window, 'NX').exec();
  }

  async succeed(account: string): Promise<void> {
    await this.redis.del(this.keys(account, '')[0]);
  }
}
