import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { applyRateLimitHeaders, RateLimitPolicy } from '@platform/contracts';
import { RateCounter } from '@platform/queue';
import { Clock } from '@platform/runtime';
import type { Request, Response } from 'express';
import { IamConfig } from '../../config/iam-config';
import { OAuthError } from './oauth-error';

const WINDOW_SEC = 60;

/**
 * `oauth.rate_limit` per client IP over the whole /oauth group, counted in Redis so every replica
 * shares one budget (fixed one-minute windows aligned to the clock: the window number is part of
 * the key, so every replica reports the same reset). Every answer carries the `oauth` policy's
 * RateLimit-Policy / RateLimit headers (and the older X-RateLimit-* trio clients already read);
 * over the limit: 429 with Retry-After.
 */
@Injectable()
export class OAuthRateLimitGuard implements CanActivate {
  private readonly limit: number;
  private readonly policy: RateLimitPolicy;

  constructor(
    config: IamConfig,
    private readonly counter: RateCounter,
    private readonly clock: Clock,
  ) {
    this.limit = config.get('OAUTH_RATE_LIMIT');
    this.policy = { name: 'oauth', quota: this.limit, windowSec: WINDOW_SEC };
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const limit = this.limit;
    if (limit === 0) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const nowSec = this.clock.nowSec();
    const window = Math.floor(nowSec / WINDOW_SEC);
    const key = `iam:rl:oauth:${req.ip}:${window}`;
    const { count } = await this.counter.take(key, WINDOW_SEC + 5);
    const resetIn = (window + 1) * WINDOW_SEC - nowSec;
    const exceeded = count > limit;
    applyRateLimitHeaders(res, this.policy, { remaining: limit - count, resetSec: resetIn }, exceeded);
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - count)));
    res.setHeader('X-RateLimit-Reset', String((window + 1) * WINDOW_SEC));
    if (exceeded) {
      throw new OAuthError('rate_limited', `more than ${limit} requests per minute`, 429, { 'Retry-After': String(res.getHeader('Retry-After')) });
    }
    return true;
  }
}
