import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { applyRateLimitHeaders, HeaderSink, RateLimitPolicy, REDIS_CLIENT, retryAfterSec } from '@platform/contracts';
import type Redis from 'ioredis';

/** Where a key's window stands. */
export interface WindowCount {
  count: number;
  /** Seconds until the key's window expires (0 when nothing was counted). */
  resetSec: number;
}

type CountingRedis = Redis & {
  rateCounterTake(key: string, windowSec: number, units: number): Promise<[number, number]>;
  rateCounterReserve(numKeys: number, ...args: (string | number)[]): Promise<number>;
  rateCounterSettle(numKeys: number, ...args: string[]): Promise<number>;
};

/** One budget an attempt draws on: its key, how many attempts a window allows, and what a success does to it. */
export interface AttemptBudget {
  key: string;
  limit: number;
  /**
   * `clear`: a success forgives the failures counted so far (an account's lock), down to the
   * attempts still being checked; `refund`: a success gives back only its own unit (an address
   * that counts failures alone).
   */
  onSuccess: 'clear' | 'refund';
}

/**
 * INCRBY the units, the window's expiry set with the first unit only (steady traffic cannot keep a
 * window alive forever) and the time left, atomically, in one round trip.
 */
const TAKE_SCRIPT = `local n = redis.call('INCRBY', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
return {n, redis.call('PTTL', KEYS[1])}`;

/**
 * Reserves one attempt on every budget (KEYS; ARGV: the window, then each budget's limit), or on
 * none when any is at its limit (nothing counted, 0 back). Each budget is a hash of `n` (failures
 * plus attempts still being checked) and `open` (attempts still being checked), its window started
 * by its first attempt and never extended (EXPIRE NX).
 */
const RESERVE_SCRIPT = `for i, key in ipairs(KEYS) do
  if tonumber(redis.call('HGET', key, 'n') or '0') >= tonumber(ARGV[i + 1]) then return 0 end
end
for _, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, 'n', 1)
  redis.call('HINCRBY', key, 'open', 1)
  redis.call('EXPIRE', key, ARGV[1], 'NX')
end
return 1`;

/**
 * Settles a reserved attempt (ARGV: '1' for a success, then each budget's onSuccess). A failure
 * stays counted. A budget whose window ended meanwhile is left alone (touching it would recreate
 * it without an expiry). `clear` keeps the attempts still being checked rather than zero: wiping
 * them would hand a burst sent next to a legitimate success a fresh budget on top of its guesses.
 */
const SETTLE_SCRIPT = `local ok = ARGV[1] == '1'
for i, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then
    local open = redis.call('HINCRBY', key, 'open', -1)
    if open < 0 then open = 0 redis.call('HSET', key, 'open', 0) end
    if ok then
      if ARGV[i + 1] == 'clear' then
        if open == 0 then redis.call('DEL', key) else redis.call('HSET', key, 'n', open) end
      elseif redis.call('HINCRBY', key, 'n', -1) < 0 then
        redis.call('HSET', key, 'n', 0)
      end
    end
  end
end
return 1`;

const secondsLeft = (pttl: number, windowSec: number, counted: boolean) => (pttl > 0 ? Math.ceil(pttl / 1000) : counted ? windowSec : 0);

/**
 * The platform's one rate counter: fixed windows counted in Redis, so every replica shares one
 * budget. iam's /oauth limit and sign-in attempt budgets (`reserve`/`settle`) and kb-api's request and
 * attempt limits (login, widget, MCP) all count here; callers choose the key (an aligned window number in it, or a window
 * that starts with the key's first unit) and what a refusal looks like.
 *
 * Why not @nestjs/throttler: its guard decides limits per route at boot and answers with its own
 * headers and 429 body, while these limits are read per request (a widget key's own quota, after
 * the key is known), some count only failures (sign-in), and every answer must keep its area's
 * error shape and the @platform/contracts RateLimit headers.
 *
 * It uses a connection of its own with auto-pipelining: counts from requests handled in the same
 * tick go out in one write, which matters at token-endpoint rates; each count is still one atomic
 * script call, so budgets are exact.
 */
@Injectable()
export class RateCounter implements OnApplicationShutdown {
  private connection?: CountingRedis;

  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis) {}

  /** Counts `units` (one by default) under `key` in a window of `windowSec` that starts with the key's first unit. */
  async take(key: string, windowSec: number, units = 1): Promise<WindowCount> {
    if (!Number.isSafeInteger(units) || units < 1) throw new RangeError('units must be a positive integer');
    const [count, pttl] = await this.counting().rateCounterTake(key, windowSec, units);
    return { count: Number(count), resetSec: secondsLeft(Number(pttl), windowSec, true) };
  }

  /** The window's count without counting (0 and no time left when nothing was counted). */
  async peek(key: string, windowSec: number): Promise<WindowCount> {
    const connection = this.counting();
    const [count, pttl] = await Promise.all([connection.get(key), connection.pttl(key)]);
    return { count: Number(count ?? 0), resetSec: secondsLeft(pttl, windowSec, count !== null) };
  }

  /**
   * Attempt budgets (sign-in): reserves one attempt on every budget before the credential is
   * checked, atomically, or refuses (false) without counting when any is at its limit; so however
   * many attempts arrive at once, at most the limit are ever checked per window. Every reservation
   * must be settled.
   */
  async reserve(budgets: readonly AttemptBudget[], windowSec: number): Promise<boolean> {
    const reserved = await this.counting().rateCounterReserve(budgets.length, ...budgets.map((b) => b.key), windowSec, ...budgets.map((b) => b.limit));
    return Number(reserved) === 1;
  }

  /** Settles a reservation: a failure stays counted; a success does each budget's `onSuccess`. */
  async settle(budgets: readonly AttemptBudget[], succeeded: boolean): Promise<void> {
    await this.counting().rateCounterSettle(budgets.length, ...budgets.map((b) => b.key), succeeded ? '1' : '0', ...budgets.map((b) => b.onSuccess));
  }

  async clear(...keys: string[]): Promise<void> {
    if (keys.length) await this.counting().del(...keys);
  }

  /**
   * A request limit: counts one request (or `units`: the calls of a batch) against `policy` under
   * `key`, writes the policy's RateLimit headers on the answer and, when over the quota, Retry-After
   * too. Returns the seconds to wait when over the quota, else null; the caller answers 429 in its
   * area's shape.
   */
  async limit(res: HeaderSink, policy: RateLimitPolicy, key: string, units = 1): Promise<number | null> {
    const { count, resetSec } = await this.take(key, policy.windowSec, units);
    const state = { remaining: policy.quota - count, resetSec };
    const exceeded = count > policy.quota;
    applyRateLimitHeaders(res, policy, state, exceeded);
    return exceeded ? retryAfterSec(state) : null;
  }

  private counting(): CountingRedis {
    if (!this.connection) {
      const connection = this.redis.duplicate({ enableAutoPipelining: true }) as CountingRedis;
      connection.defineCommand('rateCounterTake', { numberOfKeys: 1, lua: TAKE_SCRIPT });
      connection.defineCommand('rateCounterReserve', { lua: RESERVE_SCRIPT });
      connection.defineCommand('rateCounterSettle', { lua: SETTLE_SCRIPT });
      this.connection = connection;
    }
    return this.connection;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.quit().catch(() => this.connection?.disconnect());
  }
}
