import { SignJWT } from 'jose';
import { TestJwksIssuer } from '@platform/testing';
import { JwtVerifier, TokenInvalidError } from './jwt-verifier';

describe('JwtVerifier against a real JWKS endpoint', () => {
  let issuer: TestJwksIssuer;
  let verifier: JwtVerifier;

  beforeEach(async () => {
    issuer = await new TestJwksIssuer().start();
    verifier = new JwtVerifier({
      jwksUrl: issuer.jwksUrl,
      issuer: issuer.issuer,
      audience: ['platform', 'other'],
      refetchCooldownMs: 200,
      clockToleranceSec: 5,
    });
  });

  afterEach(() => issuer.stop());

  it('verifies a good token and fetches the key set once for many tokens', async () => {
    for (let i = 0; i < 20; i++) {
      const { payload } = await verifier.verify(await issuer.mint({ scope: 'evidence:review', sub: `c${i}` }));
      expect(payload.sub).toBe(`c${i}`);
    }
    expect(issuer.jwksFetches).toBe(1);
  });

  it('refetches once on an unknown kid (key rotation) and then accepts the new key', async () => {
    await verifier.verify(await issuer.mint());
    await new Promise((r) => setTimeout(r, 250));
    await issuer.addKey();
    const { payload } = await verifier.verify(await issuer.mint({ sub: 'after-rotation' }));
    expect(payload.sub).toBe('after-rotation');
    expect(issuer.jwksFetches).toBe(2);
  });

  it('does not refetch more than once per cooldown for forged kids', async () => {
    await verifier.verify(await issuer.mint());
    const stray = await issuer.unpublishedKey();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, async () => verifier.verify(await issuer.mint({}, stray))),
    );
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(issuer.jwksFetches).toBeLessThanOrEqual(2);
  });

  it.each([
    ['an expired token', { expiresInSec: -60 }, /expired/],
    ['a token not yet valid', { notBeforeSec: 120 }, /nbf/],
    ['another issuer', { issuer: 'http://evil.test' }, /iss/],
    ['another audience', { audience: 'someone-else' }, /aud/],
  ])('refuses %s', async (_label, options, reason) => {
    await expect(verifier.verify(await issuer.mint(options))).rejects.toThrow(reason);
  });

  it('tolerates small clock skew', async () => {
    await expect(verifier.verify(await issuer.mint({ expiresInSec: -2 }))).resolves.toBeDefined();
  });

  it('refuses HS256 (even keyed with the public key material) and alg none', async () => {
    const hs = await new SignJWT({ scope: 'x' })
      .setProtectedHeader({ alg: 'HS256', kid: 'any' })
      .setIssuer(issuer.issuer)
      .setAudience('platform')
      .setSubject('attacker')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-shared-secret-of-thirty-two-bytes!!'));
    await expect(verifier.verify(hs)).rejects.toThrow(/algorithm not allowed/);

    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(
      JSON.stringify({ iss: issuer.issuer, aud: 'platform', sub: 'x', iat: 1, exp: 9999999999 }),
    ).toString('base64url');
    await expect(verifier.verify(`${header}.${body}.`)).rejects.toBeInstanceOf(TokenInvalidError);
  });

  it('refuses a tampered payload', async () => {
    const [h, , s] = (await issuer.mint({ scope: 'kb:read' })).split('.');
    const forged = Buffer.from(
      JSON.stringify({ iss: issuer.issuer, aud: 'platform', sub: 'x', scope: 'iam:clients.manage', iat: 1, exp: 9999999999 }),
    ).toString('base64url');
    await expect(verifier.verify(`${h}.${forged}.${s}`)).rejects.toThrow(/signature/);
  });

  describe('the cache of verified tokens', () => {
    /** A verifier whose key lookups are counted: one lookup per signature actually checked. */
    const counting = (options: { verifiedCacheSize?: number; verifiedCacheMs?: number } = {}) => {
      const inner = new JwtVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: 'platform' });
      let lookups = 0;
      const keys = ((...args: unknown[]) => {
        lookups++;
        return (inner as unknown as { keys: (...a: unknown[]) => unknown }).keys(...args);
      }) as never;
      const verifier = new JwtVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: 'platform', ...options }, keys);
      return { verifier, lookups: () => lookups };
    };

    it('checks a token\'s signature once, then serves its next uses from the cache', async () => {
      const { verifier: v, lookups } = counting();
      const token = await issuer.mint({ sub: 'cached' });
      for (let i = 0; i < 5; i++) expect((await v.verify(token)).payload.sub).toBe('cached');
      expect(lookups()).toBe(1);
      await v.verify(await issuer.mint({ sub: 'other' }));
      expect(lookups()).toBe(2);
    });

    it('still refuses a cached token once it has expired, and never caches a refused one', async () => {
      const { verifier: v, lookups } = counting();
      const token = await issuer.mint({ sub: 'short', expiresInSec: 2 });
      await v.verify(token);
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 10_000);
      try {
        await expect(v.verify(token)).rejects.toThrow(/expired/);
      } finally {
        clock.mockRestore();
      }
      const tampered = `${token.slice(0, -4)}AAAA`;
      await expect(v.verify(tampered)).rejects.toThrow(TokenInvalidError);
      await expect(v.verify(tampered)).rejects.toThrow(TokenInvalidError);
      expect(lookups()).toBe(4);
    });

    it('checks the signature again after verifiedCacheMs, and holds at most verifiedCacheSize tokens', async () => {
      const { verifier: v, lookups } = counting({ verifiedCacheSize: 2, verifiedCacheMs: 50 });
      const token = await issuer.mint({ sub: 'a' });
      await v.verify(token);
      await new Promise((r) => setTimeout(r, 80));
      await v.verify(token);
      expect(lookups()).toBe(2);
      await v.verify(await issuer.mint({ sub: 'b' }));
      await v.verify(await issuer.mint({ sub: 'c' })); // evicts the oldest (a)
      await v.verify(token);
      expect(lookups()).toBe(5);
    });

    it('is off with verifiedCacheSize 0', async () => {
      const { verifier: v, lookups } = counting({ verifiedCacheSize: 0 });
      const token = await issuer.mint();
      await v.verify(token);
      await v.verify(token);
      expect(lookups()).toBe(2);
    });
  });
});
