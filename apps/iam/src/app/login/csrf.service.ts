import { timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { randomString, SecretHasher } from '@platform/crypto';
import type { Request, Response } from 'express';
import { readCookie } from '../session/cookies';
import { IamConfig } from '../../config/iam-config';

const CSRF_COOKIE = 'iam_csrf';

/**
 * CSRF protection for the login pages: a random per-browser value in an httpOnly cookie and, in
 * every form (or the x-csrf-token header of our scripts), a keyed hash of it. A cross-site page
 * can neither read the cookie nor compute the hash, so it cannot post a valid form.
 */
@Injectable()
export class CsrfService {
  constructor(
    private readonly hasher: SecretHasher,
    private readonly config: IamConfig,
  ) {}

  /** The token to embed in the page; sets the cookie when the browser has none yet. */
  token(req: Request, res: Response): string {
    let value = readCookie(req, CSRF_COOKIE);
    if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
      value = randomString(32);
      res.cookie(CSRF_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: this.config.secureCookies, path: '/login' });
      // Later reads in this request see the new value.
      req.headers.cookie = `${req.headers.cookie ? `${req.headers.cookie}; ` : ''}${CSRF_COOKIE}=${value}`;
    }
    return this.hasher.lookupKey(`csrf:${value}`);
  }

  valid(req: Request, given: unknown): boolean {
    const value = readCookie(req, CSRF_COOKIE);
    if (!value || typeof given !== 'string' || !given) return false;
    const expected = Buffer.from(this.hasher.lookupKey(`csrf:${value}`));
    const actual = Buffer.from(given);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}
