import { Injectable } from '@nestjs/common';
import { AppPassportStrategy } from '@platform/auth';
import type { Request } from 'express';
import { Strategy } from 'passport-local';
import type { LoginUser } from '../../users/users.repository';
import { formText } from '../form-text';
import { PasswordLoginService } from '../password-login.service';

export const PASSWORD_STRATEGY = 'local';

/** Why a password sign-in was refused (the form says the same for every `invalid`). */
export interface PasswordRefusal {
  kind: 'invalid' | 'throttled';
}

/**
 * The sign-in form's email and password (passport-local): the account on success; otherwise no
 * user, with the refusal (`invalid` whatever the reason, or `throttled`) as passport's info.
 */
@Injectable()
export class PasswordStrategy extends AppPassportStrategy(Strategy, PASSWORD_STRATEGY) {
  constructor(private readonly passwords: PasswordLoginService) {
    super({ usernameField: 'email', passwordField: 'password', passReqToCallback: true, session: false });
  }

  async validate(req: Request, email: unknown, password: unknown): Promise<LoginUser | [false, PasswordRefusal]> {
    const outcome = await this.passwords.verify(formText(email).trim(), formText(password), req.ip ?? '');
    return outcome.kind === 'ok' ? outcome.user : [false, { kind: outcome.kind }];
  }
}
