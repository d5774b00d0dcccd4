import { Injectable, OnModuleInit } from '@nestjs/common';
import { PasswordHasher, randomString } from '@platform/crypto';
import { LoginUser, UsersRepository } from '../users/users.repository';
import { LoginThrottle } from './login-throttle.service';

export type PasswordOutcome = { kind: 'ok'; user: LoginUser } | { kind: 'invalid' } | { kind: 'throttled' };

/**
 * Email and password (argon2id). Every failure looks the same to the caller (unknown email, wrong
 * password, disabled account, no password set) and costs the same argon2 work, so neither the
 * answer nor its timing tells which accounts exist.
 */
@Injectable()
export class PasswordLoginService implements OnModuleInit {
  private decoyHash = '';

  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordHasher,
    private readonly throttle: LoginThrottle,
  ) {}

  async onModuleInit(): Promise<void> {
    this.decoyHash = await this.passwords.hash(randomString(16));
  }

  async verify(email: string, password: string, ip: string): Promise<PasswordOutcome> {
    const account = email.trim().toLowerCase();
    // The attempt is reserved before argon2 runs, so a burst of guesses cannot all be checked.
    const outcome = await this.throttle.attempt(account, ip, async () => {
      const user = account ? await this.users.findForLoginByEmail(account) : null;
      const matches = await this.passwords.verify(password, user?.password_hash ?? this.decoyHash);
      return user && user.password_hash && matches && user.active ? user : null;
    });
    return typeof outcome === 'string' ? { kind: outcome } : { kind: 'ok', user: outcome };
  }
}
