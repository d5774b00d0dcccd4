import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RATE_LIMIT_EXPOSED_HEADERS } from '@platform/contracts';
import { SecretHasher } from '@platform/crypto';
import type { Request, Response } from 'express';
import { TenantStatusReader } from '../auth/tenant-status.reader';
import { ThrottleService } from '../auth/throttle.service';
import { KbError } from '../errors/kb-errors';
import { IP_REQUESTS_PER_MINUTE, normalizeOrigin } from './widget-catalog';
import { WidgetKeyRow, WidgetKeysRepository } from './widget-keys.repository';
import { WidgetTokensService } from './widget-tokens.service';

export type WidgetAuthMode = 'browser' | 'proxy' | 'session_token' | 'user_token' | 'identity_secret';

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

const tokenInvalid = () => new KbError(401, 'session_token_invalid', 'The widget session token is invalid, expired or already used.');
const originRefused = () => new KbError(403, 'origin_not_allowed', 'This origin may not use this widget key.');
const inactive = () => new KbError(403, 'widget_key_inactive', 'This widget key is disabled.');

export function rateLimited(retryAfter: number): KbError {
  return new KbError(429, 'rate_limited', 'Too many widget requests: retry later.', { retry_after: retryAfter });
}

/**
 * `widget.key`: the public widget API authenticates with a widget key, never a user. Order: the
 * per-IP throttle, then the credential (session or user token; else X-Widget-Key with a proxy
 * secret or an allowed Origin), then the key's own per key+IP limit, and only then is a session
 * token used up, so a refused request never burns one. CORS is echoed for allowed origins only.
 */
@Injectable()
export class WidgetKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: WidgetKeysRepository,
    private readonly tokens: WidgetTokensService,
    private readonly throttle: ThrottleService,
    private readonly tenants: TenantStatusReader,
    private readonly hasher: SecretHasher,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<WidgetRequest>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const ip = req.ip ?? 'unknown';
    await this.limit(res, 'widget-ip', [ip], IP_REQUESTS_PER_MINUTE);

    const rawOrigin = req.headers.origin;
    const origin = typeof rawOrigin === 'string' && rawOrigin !== '' && rawOrigin !== 'null' ? normalizeOrigin(rawOrigin) : null;
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;
    const identitySecretRoute = this.reflector.getAllAndOverride<boolean>(WIDGET_IDENTITY_SECRET, [ctx.getHandler(), ctx.getClass()]) === true;

    if (!identitySecretRoute && bearer && /^w[tu]_/.test(bearer)) {
      req.widget = await this.fromToken(res, bearer, origin, ip);
      return true;
    }

    const publicKey = req.headers['x-widget-key'];
    if (typeof publicKey !== 'string' || publicKey === '') throw new KbError(401, 'widget_key_missing', 'Send the widget public key in X-Widget-Key.');
    const key = /^pk_[0-9A-Za-z]{10,100}$/.test(publicKey) ? await this.keys.findByPublicKey(publicKey) : null;
    if (!key) throw new KbError(401, 'widget_key_invalid', 'Unknown widget key.');
    await this.requireActive(key);

    let mode: WidgetAuthMode;
    if (identitySecretRoute) {
      const ok = key.user_auth_enabled && key.identity_secret_hash !== null && bearer !== null && this.hasher.verify(bearer, key.identity_secret_hash);
      if (!ok) throw new KbError(401, 'identity_credentials_invalid', 'The identity secret is wrong or user authentication is off for this key.');
      mode = 'identity_secret';
    } else if (bearer?.startsWith('sk_') && this.hasher.verify(bearer, key.secret_hash)) {
      mode = 'proxy';
    } else {
      // A wrong proxy secret is no credential at all: the call is judged as a browser's.
      if (!origin || !key.allowed_origins.includes(origin)) throw originRefused();
      mode = 'browser';
    }
    this.allowCors(res, key, origin);
    await this.limit(res, 'widget-key', [key.id, ip], key.rate_limit);
    req.widget = { key, mode, origin, identity: null, boundSessionId: null, locale: null };
    return true;
  }

  private async fromToken(res: Response, bearer: string, origin: string | null, ip: string): Promise<WidgetCaller> {
    const token = await this.tokens.peek(bearer);
    if (!token) throw tokenInvalid();
    const key = await this.keys.findById(token.key_id);
    if (!key) throw tokenInvalid();
    await this.requireActive(key);
    if (token.origin !== origin || (origin !== null && !key.allowed_origins.includes(origin))) throw originRefused();
    if (token.kind === 'user' && (!key.user_auth_enabled || token.identity_credential_version !== key.identity_credential_version)) throw tokenInvalid();
    this.allowCors(res, key, origin);
    await this.limit(res, 'widget-key', [key.id, ip], key.rate_limit);
    if (token.kind === 'session' && !(await this.tokens.consume(token.id))) throw tokenInvalid();
    return {
      key,
      mode: token.kind === 'session' ? 'session_token' : 'user_token',
      origin,
      identity: token.identity,
      boundSessionId: token.session_id,
      locale: token.locale,
    };
  }

  private async requireActive(key: WidgetKeyRow): Promise<void> {
    if (!key.active || (await this.tenants.status(key.tenant_id)) !== 'active') throw inactive();
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
