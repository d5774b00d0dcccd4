import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long one nonce window lasts; a nonce is accepted in its window and the next one. */
export const DPOP_NONCE_DEFAULT_WINDOW_SEC = 300;

export interface DpopNonceOptions {
  /** Shared by every replica of the service, so a nonce one replica issued is valid at all of them. */
  secret: string;
  /** Binds nonces to one resource, so a nonce for one service is useless at another with the same secret. */
  audience: string;
  windowSec?: number;
}

export type DpopNonceCheck = 'current' | 'previous' | 'invalid';

/**
 * Server-provided DPoP nonces (RFC 9449 §8–9) without shared state: a nonce is the HMAC of the
 * resource and a time window, so any replica can issue and check it, and it goes stale on its own.
 * The caller passes the time (its injectable clock).
 */
export class DpopNonces {
  private readonly windowMs: number;

  constructor(private readonly options: DpopNonceOptions) {
    if (options.secret.length < 32) throw new Error('the DPoP nonce secret must be at least 32 characters');
    this.windowMs = (options.windowSec ?? DPOP_NONCE_DEFAULT_WINDOW_SEC) * 1000;
  }

  /** The nonce of the window `nowMs` falls in. */
  issue(nowMs: number): string {
    return this.forWindow(this.window(nowMs));
  }

  /** Whether `nonce` is this window's, the previous window's (still accepted) or neither. */
  check(nonce: string | undefined, nowMs: number): DpopNonceCheck {
    if (typeof nonce !== 'string' || nonce.length === 0) return 'invalid';
    const w = this.window(nowMs);
    if (same(nonce, this.forWindow(w))) return 'current';
    if (same(nonce, this.forWindow(w - 1))) return 'previous';
    return 'invalid';
  }

  private window(nowMs: number): number {
    return Math.floor(nowMs / this.windowMs);
  }

  private forWindow(window: number): string {
    return createHmac('sha256', this.options.secret).update(`dpop-nonce|${this.options.audience}|${window}`).digest('base64url');
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
