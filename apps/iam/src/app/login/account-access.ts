import { Injectable } from '@nestjs/common';
import type { IamSession } from '../session/session.service';
import { LoginUser, UsersRepository } from '../users/users.repository';

export interface AccountAccess {
  session: IamSession;
  user: LoginUser;
  /**
   * Whether this session may change sign-in methods. Once an account has a second factor, only
   * an aal2 session may add or remove one; otherwise a stolen password would be enough to replace it.
   */
  mayChangeFactors: boolean;
}

/** The account behind a request's session (as a session guard read it), and what it may change. */
@Injectable()
export class AccountAccessService {
  constructor(private readonly users: UsersRepository) {}

  async resolve(session: IamSession | undefined): Promise<AccountAccess | undefined> {
    const user = session ? await this.users.findForLogin(session.sub) : null;
    if (!session || !user) return undefined;
    const hasFactor = !!user.totp_enabled_at || user.passkey_count > 0;
    return { session, user, mayChangeFactors: !hasFactor || session.acr !== 'aal1' };
  }
}
