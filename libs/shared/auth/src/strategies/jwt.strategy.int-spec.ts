import { TestJwksIssuer } from '@platform/testing';
import type { Request, Response } from 'express';
import passport from 'passport';
import { AccessTokenAuthenticator, AccessTokenRejected } from '../access-token-authenticator';
import { JwtVerifier } from '../jwt-verifier';
import { JWT_STRATEGY, JwtStrategy } from './jwt.strategy';

/** Runs a registered strategy by name on a bare request, as AuthGuard does. */
function authenticate(name: string, authorization: string): Promise<{ err: unknown; user: unknown }> {
  const req = { method: 'GET', originalUrl: '/svc', headers: { authorization } } as unknown as Request;
  return new Promise((resolve, reject) =>
    passport.authenticate(name, { session: false }, (err: unknown, user: unknown) => resolve({ err, user }))(req, {} as Response, reject),
  );
}

describe('the jwt passport strategy', () => {
  let issuer: TestJwksIssuer;
  const strategyFor = (audience: string) =>
    new JwtStrategy(new AccessTokenAuthenticator(new JwtVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience }), { publicOrigin: 'https://svc.test' }));

  beforeAll(async () => {
    issuer = await new TestJwksIssuer().start();
  });
  afterAll(() => issuer.stop());

  it('is registered as `jwt` and under a name of its own, and leaves the registry when its app stops', () => {
    const strategy = strategyFor('platform');
    const registry = passport as unknown as { _strategy(name: string): unknown };
    expect(registry._strategy(JWT_STRATEGY)).toBe(strategy);
    expect(registry._strategy(strategy.instanceName)).toBe(strategy);
    strategy.onApplicationShutdown();
    expect(registry._strategy(strategy.instanceName)).toBeUndefined();
    expect(registry._strategy(JWT_STRATEGY)).toBeUndefined();
  });

  it('refuses a token of another audience with its challenge, and accepts one of its own', async () => {
    strategyFor('platform');
    const { err } = await authenticate(JWT_STRATEGY, `Bearer ${await issuer.mint({ audience: 'https://elsewhere.test' })}`);
    expect(err).toBeInstanceOf(AccessTokenRejected);
    expect((err as AccessTokenRejected).failure).toMatchObject({ status: 401, error: 'invalid_token', scheme: 'Bearer' });
    const ok = await authenticate(JWT_STRATEGY, `Bearer ${await issuer.mint({ scope: 'svc:use', sub: 'user-1' })}`);
    expect(ok).toMatchObject({ err: null, user: { payload: { sub: 'user-1', scope: 'svc:use' } } });
  });

  it('keeps two apps apart: each instance name verifies with its own settings', async () => {
    const forPlatform = strategyFor('platform');
    const forOther = strategyFor('https://other.test');
    const token = await issuer.mint({ audience: 'https://other.test' });
    expect((await authenticate(forOther.instanceName, `Bearer ${token}`)).err).toBeNull();
    expect((await authenticate(forPlatform.instanceName, `Bearer ${token}`)).err).toBeInstanceOf(AccessTokenRejected);
  });
});
