import { Injectable } from '@nestjs/common';
import { AppPassportStrategy } from '@platform/auth';
import { SecretHasher } from '@platform/crypto';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { TenantStatusReader } from '../auth/tenant-status.reader';
import { KbError } from '../errors/kb-errors';
import { normalizeOrigin } from './widget-catalog';
import { WidgetKeyRow, WidgetKeysRepository } from './widget-keys.repository';
import { WidgetTokensService } from './widget-tokens.service';

export const WIDGET_KEY_STRATEGY = 'kb-widget-key';

export type WidgetAuthMode = 'browser' | 'proxy' | 'session_token' | 'user_token' | 'identity_secret';

type WidgetToken = NonNullable<Awaited<ReturnType<WidgetTokensService['peek']>>>;

/** What the strategy accepted: the key, how the caller proved it, and the token when one was presented (not yet used up). */
export interface WidgetCredential {
  key: WidgetKeyRow;
  mode: WidgetAuthMode;
  /** The request's Origin, normalised (null when absent). */
  origin: string | null;
  token: WidgetToken | null;
}

/** Passed by the guard: the route authenticates the host's server with the key's identity secret. */
export interface WidgetKeyAuthenticateOptions {
  identitySecret: boolean;
}

export const widgetTokenInvalid = () => new KbError(401, 'session_token_invalid', 'The widget session token is invalid, expired or already used.');
const originRefused = () => new KbError(403, 'origin_not_allowed', 'This origin may not use this widget key.');
const inactive = () => new KbError(403, 'widget_key_inactive', 'This widget key is disabled.');

/**
 * `widget.key`: a session or user token minted from a widget key (`Bearer wt_…` / `wu_…`), else
 * X-Widget-Key with a proxy secret, the key's identity secret (identity-secret routes) or an allowed
 * Origin. Judges the credential only: rate limits, CORS and using up a session token are the guard's,
 * after it, so a refused request never burns a token.
 */
@Injectable()
export class WidgetKeyStrategy extends AppPassportStrategy(Strategy, WIDGET_KEY_STRATEGY) {
  constructor(
    private readonly keys: WidgetKeysRepository,
    private readonly tokens: WidgetTokensService,
    private readonly tenants: TenantStatusReader,
    private readonly hasher: SecretHasher,
  ) {
    super({ passOptionsToCallback: true });
  }

  async validate(req: Request, options: WidgetKeyAuthenticateOptions): Promise<WidgetCredential> {
    const rawOrigin = req.headers.origin;
    const origin = typeof rawOrigin === 'string' && rawOrigin !== '' && rawOrigin !== 'null' ? normalizeOrigin(rawOrigin) : null;
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;
    if (!options.identitySecret && bearer && /^w[tu]_/.test(bearer)) return this.fromToken(bearer, origin);

    const publicKey = req.headers['x-widget-key'];
    if (typeof publicKey !== 'string' || publicKey === '') throw new KbError(401, 'widget_key_missing', 'Send the widget public key in X-Widget-Key.');
    const key = /^pk_[0-9A-Za-z]{10,100}$/.test(publicKey) ? await this.keys.findByPublicKey(publicKey) : null;
    if (!key) throw new KbError(401, 'widget_key_invalid', 'Unknown widget key.');
    await this.requireActive(key);

    let mode: WidgetAuthMode;
    if (options.identitySecret) {
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
    return { key, mode, origin, token: null };
  }

  private async fromToken(bearer: string, origin: string | null): Promise<WidgetCredential> {
    const token = await this.tokens.peek(bearer);
    if (!token) throw widgetTokenInvalid();
    const key = await this.keys.findById(token.key_id);
    if (!key) throw widgetTokenInvalid();
    await this.requireActive(key);
    if (token.origin !== origin || (origin !== null && !key.allowed_origins.includes(origin))) throw originRefused();
    if (token.kind === 'user' && (!key.user_auth_enabled || token.identity_credential_version !== key.identity_credential_version)) throw widgetTokenInvalid();
    return { key, mode: token.kind === 'session' ? 'session_token' : 'user_token', origin, token };
  }

  private async requireActive(key: WidgetKeyRow): Promise<void> {
    if (!key.active || (await this.tenants.status(key.tenant_id)) !== 'active') throw inactive();
  }
}
