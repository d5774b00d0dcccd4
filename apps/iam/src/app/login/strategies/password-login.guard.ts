import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { authenticateWith } from '@platform/auth';
import type { Request } from 'express';
import type { LoginUser } from '../../users/users.repository';
import { CsrfService } from '../csrf.service';
import { PasswordSignInForm } from '../dto/page-forms';
import { readDto } from '../../read-dto';
import type { PasswordOutcome } from '../password-login.service';
import { PasswordRefusal, PasswordStrategy } from './password.strategy';

/** Where the guard leaves the password check's outcome for the form handler. */
const OUTCOME_PROPERTY = 'passwordLogin';

type PasswordLoginRequest = Request & { [OUTCOME_PROPERTY]?: PasswordOutcome };

/**
 * The sign-in form's POST through the `local` strategy. Every answer is a page the handler renders,
 * so the guard never refuses: it leaves the outcome (signed in, invalid, throttled) on the request.
 * A form that fails its own checks (expired CSRF token, a field its DTO refuses) is not checked at all, so
 * it costs no password hashing and no throttle count; the handler answers it as before.
 */
@Injectable()
export class PasswordLoginGuard extends AuthGuard() {
  constructor(
    private readonly csrf: CsrfService,
    strategy: PasswordStrategy,
  ) {
    super(authenticateWith(strategy));
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const { value: form, errors } = readDto(PasswordSignInForm, req.body);
    if (!this.csrf.valid(req, form.csrf) || errors.email || errors.password) return true;
    return (await super.canActivate(context)) as boolean;
  }

  override getAuthenticateOptions(): { property: string } {
    return { property: OUTCOME_PROPERTY };
  }

  override handleRequest<T = PasswordOutcome>(err: unknown, user: LoginUser | false, refusal: PasswordRefusal | undefined): T {
    if (err) throw err;
    return (user ? { kind: 'ok', user } : { kind: refusal?.kind ?? 'invalid' }) as T;
  }
}

/** The outcome PasswordLoginGuard left for a form that passed its own checks. */
export function passwordOutcomeOf(req: Request): PasswordOutcome {
  const outcome = (req as PasswordLoginRequest)[OUTCOME_PROPERTY];
  if (!outcome) throw new Error('the sign-in form was not checked by PasswordLoginGuard');
  return outcome;
}
