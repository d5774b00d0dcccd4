import { Inject, Injectable } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import { SecretHasher } from '@platform/crypto';
import type Redis from 'ioredis';
import { IamConfig } from '../../config/iam-config';

/**
 * Reserves one attempt, atomically, or refuses: over either limit nothing is counted and 0 comes
 * back. The account's hash keeps `n` (failures plus attempts still being checked) and `open` (the
 * attempts still being checked); the IP's key counts the same way. Each window starts with its
 * key's first attempt and is never extended by later ones (EXPIRE NX), so steady guessing cannot
 * keep a lock alive forever.
 */
const RESERVE = `local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
local i = tonumber(redis.call('GET', KEYS[2]) or '0')
if n >= tonumber(ARGV[2]) or i >= tonumber(ARGV[3]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'n', 1)
redis.call('HINCRBY', KEYS[1], 'open', 1)
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[1], 'NX')
return 1`;

/**
 * Settles a reserved attempt. A failure stays counted. A success clears the account's count down
 * to the attempts still being checked, not to zero: wiping those would hand a burst sent next to
 * a legitimate sign-in a fresh budget on top of the guesses already in flight. A success also
 * gives its unit back to the IP, which counts failures only. A key whose window ended meanwhile
 * is left alone (touching it would recreate it without an expiry).
 */
const SETTLE = `local ok = ARGV[1] == '1'
if redis.call('EXISTS', KEYS[1]) == 1 then
  local open = redis.call('HINCRBY', KEYS[1], 'open', -1)
  if open < 0 then open = 0 redis.call('HSET', KEYS[1], 'open', 0) end
  if ok then
    if open == 0 then redis.call('DEL', KEYS[1]) else redis.call('HSET', KEYS[1], 'n', open) end
  end
end
if ok and tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('DECR', KEYS[2]) end
return 1`;

export type ThrottledCheck<T> = T | 'invalid' | 'throttled';

/**
 * Sign-in attempts (password, second factor) counted in Redis (shared by replicas), per account and
 * per client IP, over a fixed window that starts with the first attempt. An attempt is reserved
 * before its credential is checked, so however many arrive at once, at most the limit are ever
 * checked per window; the rest are refused unchecked. Unknown accounts are counted too, so the
 * throttle itself does not reveal which emails exist.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    private readonly hasher: SecretHasher,
    private readonly config: IamConfig,
  ) {}

  /**
   * Runs `check` under a reserved attempt: `throttled` without running it when the account or the
   * IP is at its limit; otherwise what it found, or `invalid` when it found nothing (counted as a
   * failure, as is a check that throws).
   */
  async attempt<T extends object>(account: string, ip: string, check: () => Promise<T | null>): Promise<ThrottledCheck<T>> {
    const keys = this.keys(account, ip);
    const window = this.config.get('IAM_LOGIN_THROTTLE_WINDOW_SEC');
    const reserved = await this.redis.eval(
      RESERVE,
      2,
      ...keys,
      window,
      this.config.get('IAM_LOGIN_MAX_FAILURES_PER_ACCOUNT'),
      this.config.get('IAM_LOGIN_MAX_FAILURES_PER_IP'),
    );
    if (Number(reserved) !== 1) return 'throttled';
    let found: T | null = null;
    try {
      found = await check();
    } finally {
      await this.redis.eval(SETTLE, 2, ...keys, found ? '1' : '0');
    }
    return found ?? 'invalid';
  }

  private keys(account: string, ip: string): [string, string] {
    return [`login:attempts:acct:${this.hasher.lookupKey(account.trim().toLowerCase())}`, `login:attempts:ip:${ip}`];
  }
}
