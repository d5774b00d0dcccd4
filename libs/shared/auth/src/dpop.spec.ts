import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { accessTokenHash, claimDpopProof, DpopProofError, dpopHeader, verifyDpopProof } from './dpop';

const URL_ = 'https://as.example.test/oauth/token';
const NOW = 1_800_000_000;

async function proofKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { privateKey, jwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

async function proof(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  const key = await proofKey();
  const token = await new SignJWT({ jti: 'j-1', htm: 'POST', htu: URL_, iat: NOW, ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk, ...header })
    .sign(key.privateKey);
  return { token, key };
}

const rejected = (p: Promise<unknown>, reason: RegExp) => expect(p).rejects.toThrow(reason);

describe('DPoP proof verification (RFC 9449 §4.3)', () => {
  it('accepts a well-formed proof and names its key thumbprint', async () => {
    const { token } = await proof({});
    const checked = await verifyDpopProof(token, { method: 'post', url: `${URL_}?x=1`, now: NOW + 10 });
    expect(checked).toEqual({ jkt: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), jti: 'j-1', iat: NOW, nonce: undefined });
  });

  it('refuses the wrong typ, method, URL, an old or future iat, and a private key in the header', async () => {
    const req = { method: 'POST', url: URL_, now: NOW };
    await rejected(verifyDpopProof((await proof({}, { typ: 'JWT' })).token, req), /typ/);
    await rejected(verifyDpopProof((await proof({ htm: 'GET' })).token, req), /htm/);
    await rejected(verifyDpopProof((await proof({ htu: 'https://as.example.test/other' })).token, req), /htu/);
    await rejected(verifyDpopProof((await proof({ iat: NOW - 61 })).token, req), /iat/);
    await rejected(verifyDpopProof((await proof({ iat: NOW + 6 })).token, req), /iat/);
    const key = await proofKey();
    const leaky = await new SignJWT({ jti: 'j', htm: 'POST', htu: URL_, iat: NOW })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.privateJwk })
      .sign(key.privateKey);
    await rejected(verifyDpopProof(leaky, req), /public key|rejected/);
  });

  it('binds to the access token through ath', async () => {
    const { token } = await proof({ ath: accessTokenHash('at-1') });
    await expect(verifyDpopProof(token, { method: 'POST', url: URL_, now: NOW, accessToken: 'at-1' })).resolves.toMatchObject({ jti: 'j-1' });
    await rejected(verifyDpopProof(token, { method: 'POST', url: URL_, now: NOW, accessToken: 'at-2' }), /ath/);
  });

  it('allows exactly one proof per request', () => {
    expect(dpopHeader(undefined)).toBeUndefined();
    expect(() => dpopHeader(['a', 'b'])).toThrow(DpopProofError);
    expect(() => dpopHeader('a, b')).toThrow(DpopProofError);
  });

  it('remembers a jti so the same proof is accepted once', async () => {
    const seen = new Set<string>();
    const store = { set: async (key: string) => (seen.has(key) ? null : (seen.add(key), 'OK' as const)) };
    const checked = await verifyDpopProof((await proof({})).token, { method: 'POST', url: URL_, now: NOW });
    expect(await claimDpopProof(store, 'p:', checked)).toBe(true);
    expect(await claimDpopProof(store, 'p:', checked)).toBe(false);
  });
});
