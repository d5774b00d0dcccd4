import { Injectable } from '@nestjs/common';
import { randomString, SecretHasher } from '@platform/crypto';
import type { Request, Response } from 'express';
import { Clock } from '@platform/runtime';
import { readCookie } from './cookies';
import { SessionsRepository } from './sessions.repository';
import { IamConfig } from '../../config/iam-config';

export const SESSION_COOKIE = 'iam_session';

export type Aal = 'aal1' | 'aal2' | 'aal3';
export const AAL_RANK: Record<Aal, number> = { aal1: 1, aal2: 2, aal3: 3 };

/** What a sign-in established; carried into codes, tokens and id_tokens. */
export interface IamSession {
  id: string;
  sub: string;
  /** Seconds since the epoch: the last time the user actively authenticated (a step-up counts). */
  authTime: number;
  acr: Aal;
  amr: string[];
  exp: number;
}

/**
 * Interactive sessions kept in Postgres: the cookie holds a random token, the row (found by the
 * token's keyed hash) holds who signed in, when, at which assurance level and with which methods.
 * Ending a session is a row update, so logout is effective even against a copied cookie.
 * This service writes sessions; a request's session is read by the `iam-session` passport
 * strategy (IamSessionStrategy), which routes reach through the guards in session.guards.ts.
 */
@Injectable()
export class SessionService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
    private readonly config: IamConfig,
  ) {}

  /** A new session (and a new cookie) for every sign-in, so a planted cookie is never promoted. */
  async start(req: Request, res: Response, s: { sub: string; acr: Aal; amr: string[] }): Promise<void> {
    await this.end(req, res);
    const ttl = this.config.get('IAM_SESSION_TTL_SEC');
    const token = randomString(32);
    const now = this.clock.now();
    await this.sessions.insert({ tokenHash: this.hasher.lookupKey(token), userId: s.sub, authTime: now, aal: s.acr, amr: s.amr, expiresAt: new Date(now.getTime() + ttl * 1000) });
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.secureCookies,
      path: '/',
      maxAge: ttl * 1000,
    });
  }

  /** Step-up: the session now also passed `method`; auth_time moves to now. */
  async raise(session: IamSession, acr: Aal, methods: string[]): Promise<void> {
    const amr = [...new Set([...session.amr, ...methods, 'mfa'])];
    const aal = AAL_RANK[acr] > AAL_RANK[session.acr] ? acr : session.acr;
    await this.sessions.raise(session.id, aal, amr, this.clock.now());
  }

  async end(req: Request, res: Response): Promise<void> {
    const token = readCookie(req, SESSION_COOKIE);
    if (token) {
      await this.sessions.end(this.hasher.lookupKey(token), this.clock.now());
    }
    res.clearCookie(SESSION_COOKIE, { path: '/' });
  }
}
