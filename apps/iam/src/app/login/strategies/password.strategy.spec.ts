import type { Request, Response } from 'express';
import passport from 'passport';
import type { LoginUser } from '../../users/users.repository';
import type { PasswordLoginService, PasswordOutcome } from '../password-login.service';
import { PASSWORD_STRATEGY, PasswordStrategy } from './password.strategy';

/** Posts the sign-in form's fields through a registered strategy, as AuthGuard does. */
function submit(name: string, body: Record<string, unknown>): Promise<{ err: unknown; user: unknown; info: unknown }> {
  const req = { method: 'POST', body, query: {}, headers: {}, ip: '203.0.113.9' } as unknown as Request;
  return new Promise((resolve, reject) =>
    passport.authenticate(name, { session: false }, (err: unknown, user: unknown, info: unknown) => resolve({ err, user, info }))(req, {} as Response, reject),
  );
}

describe('the local (email and password) passport strategy', () => {
  const ada = { id: 'u-1', email: 'ada@example.com' } as unknown as LoginUser;
  const checked: Array<[string, string, string]> = [];
  const passwords = {
    verify: async (email: string, password: string, ip: string): Promise<PasswordOutcome> => {
      checked.push([email, password, ip]);
      if (email === 'slow@example.com') return { kind: 'throttled' };
      return email === 'ada@example.com' && password === 'correct horse' ? { kind: 'ok', user: ada } : { kind: 'invalid' };
    },
  } as unknown as PasswordLoginService;
  let strategy: PasswordStrategy;

  beforeAll(() => {
    strategy = new PasswordStrategy(passwords);
  });

  it('is registered as `local` and under a name of its own', () => {
    const registry = passport as unknown as { _strategy(name: string): unknown };
    expect(registry._strategy(PASSWORD_STRATEGY)).toBe(strategy);
    expect(registry._strategy(strategy.instanceName)).toBe(strategy);
  });

  it('signs in with the right password (email trimmed, the client IP passed for throttling)', async () => {
    expect(await submit(PASSWORD_STRATEGY, { email: '  ada@example.com ', password: 'correct horse' })).toMatchObject({ err: null, user: ada });
    expect(checked.at(-1)).toEqual(['ada@example.com', 'correct horse', '203.0.113.9']);
  });

  it('refuses a wrong password and a throttled account without a user, naming why', async () => {
    expect(await submit(PASSWORD_STRATEGY, { email: 'ada@example.com', password: 'wrong' })).toEqual({ err: null, user: false, info: { kind: 'invalid' } });
    expect(await submit(PASSWORD_STRATEGY, { email: 'slow@example.com', password: 'whatever' })).toEqual({ err: null, user: false, info: { kind: 'throttled' } });
  });
});
