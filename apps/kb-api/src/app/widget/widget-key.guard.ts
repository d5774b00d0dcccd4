import { ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { authenticateWith, takeCredential } from '@platform/auth';
import { RATE_LIMIT_EXPOSED_HEADERS } from '@platform/contracts';
import type { Request, Response } from 'express';
import { ThrottleService } from '../auth/throttle.service';
import { KbError } from '../errors/kb-errors';
import { IP_REQUESTS_PER_MINUTE } from './widget-catalog';
import { WidgetKeyRow } from './widget-keys.repository';
import { WidgetAuthMode, WidgetCredential, WidgetKeyAuthenticateOptions, WidgetKeyStrategy, widgetTokenInvalid } from './widget-key.strategy';
import { WidgetTokensService } from './widget-tokens.service';

export type { WidgetAuthMode } from './widget-key.strategy';

/** Who is calling the public widget API, resolved from the key or token alone. */
export interface WidgetCaller {
  key: WidgetKeyRow;
  mode: WidgetAuthMode;
  /** The request's Origin, normalised (null when absent). */
  origin: string | null;
  /** Pseudonymous identity from a session or user token; null in browser and proxy modes. */
  identity: string | null;
  /** The session a session token was minted for, if any. */
  boundSessionId: string | null;
  locale: string | null;
}

export type WidgetRequest = Request & { widget?: WidgetCaller };

const WIDGET_IDENTITY_SECRET = 'kb:widget-identity-secret';
/** The route authenticates the host's server with the key's identity secret (user-token). */
export const IdentitySecretAuth = () => SetMetadata(WIDGET_IDENTITY_SECRET, true);

export function rateLimited(retryAfter: number): KbError {
  return new KbError(429, 'rate_limited', 'Too many widget requests: retry later.', { retry_after: retryAfter });
}

/** Where passport leaves the accepted credential until the guard has admitted it. */
const CREDENTIAL_PROPERTY = 'widgetCredential';

/**
 * `widget.key`: the public widget API authenticates with a widget key, never a user. Order: the
 * per-IP throttle, then the credential (the `kb-widget-key` strategy: session or user token; else
 * X-Widget-Key with a proxy secret or an allowed Origin), then the key's own per key+IP limit, and
 * only then is a session token used up, so a refused request never burns one. CORS is echoed for
 * allowed origins only.
 */
@Injectable()
export class WidgetKeyGuard extends AuthGuard() {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: WidgetTokensService,
    private readonly throttle: ThrottleService,
    strategy: WidgetKeyStrategy,
  ) {
    super(authenticateWith(strategy));
  }

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<WidgetRequest>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const ip = req.ip ?? 'unknown';
    await this.limit(res, 'widget-ip', [ip], IP_REQUESTS_PER_MINUTE);

    await super.canActivate(ctx);
    const { key, mode, origin, token } = takeCredential<WidgetCredential>(req, CREDENTIAL_PROPERTY);
    this.allowCors(res, key, origin);
    await this.limit(res, 'widget-key', [key.id, ip], key.rate_limit);
    if (token?.kind === 'session' && !(await this.tokens.consume(token.id))) throw widgetTokenInvalid();
    req.widget = { key, mode, origin, identity: token?.identity ?? null, boundSessionId: token?.session_id ?? null, locale: token?.locale ?? null };
    return true;
  }

  override getAuthenticateOptions(ctx: ExecutionContext): { property: string } & WidgetKeyAuthenticateOptions {
    const identitySecret = this.reflector.getAllAndOverride<boolean>(WIDGET_IDENTITY_SECRET, [ctx.getHandler(), ctx.getClass()]) === true;
    return { property: CREDENTIAL_PROPERTY, identitySecret };
  }

  /** The strategy answers every request itself (a credential, or its refusal); nothing else reaches here. */
  override handleRequest<T = WidgetCredential>(err: unknown, credential: WidgetCredential | false): T {
    if (err) throw err;
    if (!credential) throw new KbError(401, 'widget_key_missing', 'Send the widget public key in X-Widget-Key.');
    return credential as T;
  }

  private allowCors(res: Response, key: WidgetKeyRow, origin: string | null): void {
    res.setHeader('Vary', 'Origin');
    if (!origin || !key.allowed_origins.includes(origin)) return;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', [...RATE_LIMIT_EXPOSED_HEADERS, 'X-AI-Disclosure'].join(', '));
  }

  /**
   * A fixed one-minute window in Redis (shared by every replica), named as the RateLimit headers
   * name it (`widget-ip`, `widget-key`); over the limit → 429 with Retry-After.
   */
  private async limit(res: Response, name: 'widget-ip' | 'widget-key', parts: string[], quota: number): Promise<void> {
    const retryAfter = await this.throttle.limit(res, { name, quota, windowSec: 60 }, parts);
    if (retryAfter !== null) throw rateLimited(retryAfter);
  }
}
