import { Injectable } from '@nestjs/common';
import { AppPassportStrategy } from '@platform/auth';
import { SecretHasher } from '@platform/crypto';
import { Clock } from '@platform/runtime';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { readCookie } from './cookies';
import { IamSession, SESSION_COOKIE } from './session.service';
import { SessionsRepository } from './sessions.repository';

/** Passport name of iam's interactive browser session (the `iam_session` cookie). */
export const IAM_SESSION_STRATEGY = 'iam-session';

/**
 * The sign-in pages' browser session as a passport strategy: the live session of an active user
 * behind the `iam_session` cookie, or no user (no cookie, an unknown, ended or expired session, a
 * disabled user). Not having a session is never an error here: each guard decides what it means.
 */
@Injectable()
export class IamSessionStrategy extends AppPassportStrategy(Strategy, IAM_SESSION_STRATEGY) {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {
    super();
  }

  async validate(req: Request): Promise<IamSession | false> {
    const token = readCookie(req, SESSION_COOKIE);
    if (!token) return false;
    const row = await this.sessions.findLive(this.hasher.lookupKey(token), this.clock.now());
    if (!row) return false;
    return {
      id: row.id,
      sub: row.user_id,
      authTime: Math.floor(new Date(row.auth_time).getTime() / 1000),
      acr: row.aal,
      amr: row.amr,
      exp: Math.floor(new Date(row.expires_at).getTime() / 1000),
    };
  }
}
