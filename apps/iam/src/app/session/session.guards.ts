import { applyDecorators, createParamDecorator, ExecutionContext, Injectable, SetMetadata, UseFilters, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { authenticateWith } from '@platform/auth';
import type { Request } from 'express';
import { IamSessionStrategy } from './iam-session.strategy';
import type { IamSession } from './session.service';
import { SignInRedirectFilter, SignInRequired } from './sign-in-required';

/**
 * Where the session guards leave what the `iam-session` strategy found: the session, or null
 * once the request was read and has none (absent: no session guard ran on the route).
 */
const SESSION_PROPERTY = 'iamSession';

/** Where `@RequireSession(returnTo)` keeps the page to come back to after signing in. */
const SIGN_IN_RETURN_TO = 'iam:session:sign-in-return-to';

type SessionRequest = Request & { [SESSION_PROPERTY]?: IamSession | null };

/**
 * The browser session through the `iam-session` strategy, for routes where a session is optional
 * (authorize without one means "go to sign in"; the sign-in pages render the sign-in form
 * themselves): never refuses, and leaves the session, or none, for `@CurrentSession()`.
 */
@Injectable()
export class OptionalSessionGuard extends AuthGuard() {
  constructor(strategy: IamSessionStrategy) {
    super(authenticateWith(strategy));
  }

  override getAuthenticateOptions(): { property: string } {
    return { property: SESSION_PROPERTY };
  }

  override handleRequest<T = IamSession | null>(err: unknown, session: IamSession | false): T {
    if (err) throw err;
    return (session || null) as T;
  }
}

/**
 * The browser session through the `iam-session` strategy, for routes that need one: without a
 * session the browser is sent to sign in (303 to /login), then back to the route's `returnTo`.
 */
@Injectable()
export class SessionRequiredGuard extends AuthGuard() {
  constructor(
    private readonly reflector: Reflector,
    strategy: IamSessionStrategy,
  ) {
    super(authenticateWith(strategy));
  }

  override getAuthenticateOptions(): { property: string } {
    return { property: SESSION_PROPERTY };
  }

  override handleRequest<T = IamSession>(err: unknown, session: IamSession | false, _info: unknown, context: ExecutionContext): T {
    if (err) throw err;
    if (!session) {
      const returnTo = this.reflector.getAllAndOverride<string | undefined>(SIGN_IN_RETURN_TO, [context.getHandler(), context.getClass()]);
      if (returnTo === undefined) throw new Error('SessionRequiredGuard is applied through @RequireSession(returnTo)');
      throw new SignInRequired(returnTo);
    }
    return session as T;
  }
}

/** The route reads the browser session when there is one (`@CurrentSession()` may be undefined). */
export const OptionalSession = () => UseGuards(OptionalSessionGuard);

/**
 * The route needs a browser session: without one the browser goes to sign in and comes back to
 * `returnTo` (a 303, the same as a handler throwing `SignInRequired`).
 */
export const RequireSession = (returnTo: string) => applyDecorators(SetMetadata(SIGN_IN_RETURN_TO, returnTo), UseGuards(SessionRequiredGuard), UseFilters(SignInRedirectFilter));

/**
 * The session the request came with, as a session guard read it (undefined: none). A route that
 * starts, raises or ends the session in the same request does not see that change here.
 */
export const CurrentSession = createParamDecorator((_: unknown, ctx: ExecutionContext): IamSession | undefined => {
  const req = ctx.switchToHttp().getRequest<SessionRequest>();
  if (!(SESSION_PROPERTY in req)) throw new Error('the browser session was not read: use @OptionalSession() or @RequireSession() on the route');
  return req[SESSION_PROPERTY] ?? undefined;
});
