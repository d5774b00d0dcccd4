import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { EnvelopeCipher } from '@platform/crypto';
import type { Request, Response } from 'express';
import { Clock } from '../clock';

export const SESSION_COOKIE = 'iam_session';

/** What a sign-in established; carried into codes, tokens and id_tokens. */
export interface IamSession {
  sub: string;
  /** Seconds since the epoch. */
  authTime: number;
  acr: 'aal1' | 'aal2' | 'aal3';
  amr: string[];
  exp: number;
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/**
 * The interactive session as an encrypted, authenticated cookie (AES-GCM envelope): the browser
 * can neither read nor forge it, and no server state is needed to check it.
 */
@Injectable()
export class SessionService {
  constructor(
    private readonly cipher: EnvelopeCipher,
    private readonly clock: Clock,
    private readonly config: ConfigService,
  ) {}

  read(req: Request): IamSession | undefined {
    const raw = readCookie(req, SESSION_COOKIE);
    if (!raw) return undefined;
    try {
      const session = JSON.parse(this.cipher.decrypt(raw, 'iam-session')) as IamSession;
      return session.exp > this.clock.nowSec() ? session : undefined;
    } catch {
      return undefined;
    }
  }

  start(res: Response, s: Omit<IamSession, 'exp'>): IamSession {
    const ttl = this.config.get<number>('IAM_SESSION_TTL_SEC', 28800);
    const session = { ...s, exp: this.clock.nowSec() + ttl };
    res.cookie(SESSION_COOKIE, this.cipher.encrypt(JSON.stringify(session), 'iam-session'), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.get('NODE_ENV') === 'production',
      path: '/',
      maxAge: ttl * 1000,
    });
    return session;
  }

  end(res: Response): void {
    res.clearCookie(SESSION_COOKIE, { path: '/' });
  }
}
