import { Injectable } from '@nestjs/common';
import { AppPassportStrategy } from '@platform/auth';
import { parseCookie } from 'cookie';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { UserRow, UsersRepository } from '../../identity/users.repository';
import { SessionRow, SessionsService } from '../sessions.service';
import { hasAuthorization } from './credentials';

export const SESSION_STRATEGY = 'kb-session';
export const SESSION_COOKIE = 'kb_session';
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';

/** A live cookie session of an active user, and whether the request echoed the session's CSRF token. */
export interface SessionCredential {
  kind: 'session';
  session: SessionRow;
  user: UserRow;
  csrfOk: boolean;
}

/**
 * The `kb_session` cookie, when the request has no Authorization header: the session (its idle
 * expiry pushed forward) and its active user. The CSRF echo is reported, not judged: each guard
 * decides which methods need it.
 */
@Injectable()
export class SessionStrategy extends AppPassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(
    private readonly sessions: SessionsService,
    private readonly users: UsersRepository,
  ) {
    super();
  }

  async validate(req: Request): Promise<SessionCredential | false> {
    if (hasAuthorization(req.headers)) return false;
    const token = parseCookie(req.headers.cookie ?? '')[SESSION_COOKIE];
    const session = token ? await this.sessions.resolve(token) : null;
    if (!session) return false;
    const user = await this.users.findById(session.user_id);
    if (!user?.active) return false;
    const presented = req.headers[CSRF_HEADER];
    return { kind: 'session', session, user, csrfOk: this.sessions.csrfMatches(session, typeof presented === 'string' ? presented : undefined) };
  }
}
