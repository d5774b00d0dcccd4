import { randomBytes } from 'node:crypto';
import { parseKeyRing, SecretHasher } from '@platform/crypto';
import { Clock } from '@platform/runtime';
import type { Request, Response } from 'express';
import passport from 'passport';
import { IAM_SESSION_STRATEGY, IamSessionStrategy } from './iam-session.strategy';
import type { SessionRow, SessionsRepository } from './sessions.repository';

/** Runs a registered strategy by name on a request with these cookies, as AuthGuard does. */
function authenticate(name: string, cookie?: string): Promise<{ err: unknown; user: unknown }> {
  const req = { method: 'GET', headers: cookie === undefined ? {} : { cookie } } as unknown as Request;
  return new Promise((resolve, reject) =>
    passport.authenticate(name, { session: false }, (err: unknown, user: unknown) => resolve({ err, user }))(req, {} as Response, reject),
  );
}

describe('the iam-session passport strategy', () => {
  const hasher = new SecretHasher(parseKeyRing(`p1:${randomBytes(32).toString('base64')}`));
  /** The app's clock, stopped at an instant of its own, far from the real time. */
  const NOW = new Date('2030-01-02T04:00:00.000Z');
  const clock = { now: () => NOW } as Clock;
  const row: SessionRow = {
    id: 'session-1',
    user_id: 'user-1',
    auth_time: new Date('2030-01-02T03:04:05.678Z'),
    aal: 'aal2',
    amr: ['pwd', 'otp', 'mfa'],
    expires_at: new Date('2030-01-02T11:04:05.000Z'),
  };
  /** The live rows by token hash, and the instant each lookup was asked about. */
  const live = new Map<string, SessionRow>([[hasher.lookupKey('live-token'), row]]);
  const askedAt: Date[] = [];
  const sessions = {
    findLive: async (tokenHash: string, now: Date) => {
      askedAt.push(now);
      return live.get(tokenHash);
    },
  } as unknown as SessionsRepository;
  const strategyFor = () => new IamSessionStrategy(sessions, hasher, clock);

  it('is registered as `iam-session` and under a name of its own, and leaves the registry when its app stops', () => {
    const strategy = strategyFor();
    const registry = passport as unknown as { _strategy(name: string): unknown };
    expect(registry._strategy(IAM_SESSION_STRATEGY)).toBe(strategy);
    expect(registry._strategy(strategy.instanceName)).toBe(strategy);
    strategy.onApplicationShutdown();
    expect(registry._strategy(strategy.instanceName)).toBeUndefined();
    expect(registry._strategy(IAM_SESSION_STRATEGY)).toBeUndefined();
  });

  it("accepts the live session behind the cookie, found by the keyed hash of its token at the clock's time", async () => {
    const strategy = strategyFor();
    const { err, user } = await authenticate(strategy.instanceName, 'theme=dark; iam_session=live-token; other=1');
    expect(err).toBeNull();
    expect(user).toEqual({ id: 'session-1', sub: 'user-1', authTime: Math.floor(row.auth_time.getTime() / 1000), acr: 'aal2', amr: ['pwd', 'otp', 'mfa'], exp: Math.floor(row.expires_at.getTime() / 1000) });
    expect(askedAt.at(-1)).toEqual(NOW);
  });

  it('finds no session without the cookie, with an undecodable one, or behind a token with no live row', async () => {
    const strategy = strategyFor();
    const lookups = askedAt.length;
    expect(await authenticate(strategy.instanceName)).toEqual({ err: null, user: false });
    expect(await authenticate(strategy.instanceName, 'iam_session=%E0%A4%A')).toEqual({ err: null, user: false });
    expect(askedAt.length).toBe(lookups);
    expect(await authenticate(strategy.instanceName, 'iam_session=ended-or-unknown')).toEqual({ err: null, user: false });
    expect(askedAt.length).toBe(lookups + 1);
  });
});
