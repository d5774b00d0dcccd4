import { Injectable } from '@nestjs/common';
import { EnvelopeCipher } from '@platform/crypto';
import type { Request, Response } from 'express';
import { Clock } from '@platform/runtime';
import { readCookie } from '../session/cookies';
import { IamConfig } from '../../config/iam-config';

const PENDING_COOKIE = 'iam_pending_login';
const PENDING_TTL_SEC = 300;

/** A sign-in halfway through: the password was right, the second factor is still owed. */
export interface PendingLogin {
  sub: string;
  amr: string[];
  exp: number;
}

/**
 * Kept in an encrypted, authenticated cookie (AES-GCM, bound to its purpose) that lives five
 * minutes: it grants nothing by itself, it only lets the second-factor page know whose code to check.
 */
@Injectable()
export class PendingLoginStore {
  constructor(
    private readonly cipher: EnvelopeCipher,
    private readonly clock: Clock,
    private readonly config: IamConfig,
  ) {}

  read(req: Request): PendingLogin | undefined {
    const raw = readCookie(req, PENDING_COOKIE);
    if (!raw) return undefined;
    try {
      const p = JSON.parse(this.cipher.decrypt(raw, 'iam-pending-login')) as PendingLogin;
      return p.exp > this.clock.nowSec() ? p : undefined;
    } catch {
      return undefined;
    }
  }

  write(res: Response, p: Omit<PendingLogin, 'exp'>): void {
    const value = this.cipher.encrypt(JSON.stringify({ ...p, exp: this.clock.nowSec() + PENDING_TTL_SEC }), 'iam-pending-login');
    res.cookie(PENDING_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure: this.config.secureCookies, path: '/login', maxAge: PENDING_TTL_SEC * 1000 });
  }

  clear(res: Response): void {
    res.clearCookie(PENDING_COOKIE, { path: '/login' });
  }
}
