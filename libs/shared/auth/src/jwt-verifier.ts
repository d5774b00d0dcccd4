import { KeyObject, verify as verifySignature } from 'node:crypto';
import { createRemoteJWKSet, CryptoKey, errors, JWTPayload, JWTVerifyGetKey } from 'jose';

export interface JwtVerifierOptions {
  /** Where iam publishes its keys, e.g. http://iam:3001/.well-known/jwks.json */
  jwksUrl: string;
  issuer: string;
  /** Accepted audiences; a token naming any of them passes. */
  audience: string | string[];
  /** Seconds of clock skew tolerated on exp/nbf/iat. */
  clockToleranceSec?: number;
  /** Minimum time between two JWKS fetches caused by an unknown kid. */
  refetchCooldownMs?: number;
  /** How long fetched keys are trusted before a background refresh. */
  cacheMaxAgeMs?: number;
  /** Required `typ` header (RFC 9068 says at+jwt); unset accepts any. */
  typ?: string;
  timeoutMs?: number;
  /**
   * Tokens verified recently, kept so a client's next calls skip the signature check (the larger
   * part of the work): at most this many (0: no cache), each for at most `verifiedCacheMs` and never
   * past its own `exp`. Claims are checked again at every use.
   */
  verifiedCacheSize?: number;
  verifiedCacheMs?: number;
}

export interface VerifiedToken {
  payload: JWTPayload & Record<string, unknown>;
  kid?: string;
}

export interface VerifyOptions {
  /**
   * Accept a token bound to a DPoP key (`cnf.jkt`): only when the caller checks the proof itself.
   * Otherwise such a token is refused, so a bound token never passes as a plain bearer token.
   */
  allowBound?: boolean;
}

export class TokenInvalidError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'TokenInvalidError';
  }
}

/**
 * Offline verification of iam's ES256 access tokens. Keys are fetched from the JWKS once and
 * cached; a token with an unknown kid triggers at most one refetch per cooldown (so a forged kid
 * cannot make us hammer iam), and anything but ES256 is refused before a key is even looked up.
 */
export class JwtVerifier {
  private readonly keys: JWTVerifyGetKey;
  /** Insertion-ordered, so the first entry is the oldest: evicted first when the cache is full. */
  private readonly verified = new Map<string, { token: VerifiedToken; until: number }>();
  private readonly verifiedCacheSize: number;
  private readonly verifiedCacheMs: number;

  constructor(private readonly options: JwtVerifierOptions, keys?: JWTVerifyGetKey) {
    this.keys =
      keys ??
      createRemoteJWKSet(new URL(options.jwksUrl), {
        cooldownDuration: options.refetchCooldownMs ?? 5000,
        cacheMaxAge: options.cacheMaxAgeMs ?? 10 * 60 * 1000,
        timeoutDuration: options.timeoutMs ?? 3000,
      });
    this.verifiedCacheSize = options.verifiedCacheSize ?? 10_000;
    // A key withdrawn from the JWKS stops being trusted within this time (the key set itself is
    // cached for cacheMaxAgeMs, longer than this).
    this.verifiedCacheMs = options.verifiedCacheMs ?? 60_000;
  }

  async verify(token: string, options: VerifyOptions = {}): Promise<VerifiedToken> {
    const verified = await this.verifySignedToken(token);
    const cnf = verified.payload['cnf'];
    if (!options.allowBound && cnf !== undefined && cnf !== null) {
      throw new TokenInvalidError('the token is bound to a DPoP key: present it with the DPoP scheme and a proof');
    }
    return verified;
  }

  private async verifySignedToken(token: string): Promise<VerifiedToken> {
    const cached = this.verified.get(token);
    if (cached) {
      if (cached.until > Date.now()) {
        this.checkClaims(cached.token.payload);
        return cached.token;
      }
      this.verified.delete(token);
    }
    try {
      const verified = await this.verifyOrThrow(token);
      this.remember(token, verified);
      return verified;
    } catch (e) {
      if (e instanceof TokenInvalidError) throw e;
      throw new TokenInvalidError(describe(e));
    }
  }

  /**
   * jose resolves the key (cache, kid refetch with cooldown); the ES256 signature is checked with
   * node:crypto's synchronous verify, about twice as fast as the WebCrypto path on this hot path.
   */
  private async verifyOrThrow(token: string): Promise<VerifiedToken> {
    const parts = token.split('.');
    if (parts.length !== 3) throw new TokenInvalidError('malformed token');
    const header = parseSegment(parts[0]);
    if (header['alg'] !== 'ES256') throw new TokenInvalidError('algorithm not allowed (ES256 only)');
    if (this.options.typ && header['typ'] !== this.options.typ) throw new TokenInvalidError(`token type must be ${this.options.typ}`);
    const cryptoKey = await this.keys(header as { alg: string; kid?: string }, { payload: parts[1], signature: parts[2] } as never);
    const key = this.keyObject(cryptoKey as CryptoKey);
    const signature = Buffer.from(parts[2], 'base64url');
    const ok = verifySignature('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key, dsaEncoding: 'ieee-p1363' }, signature);
    if (!ok) throw new TokenInvalidError('signature verification failed');
    const payload = parseSegment(parts[1]) as VerifiedToken['payload'];
    this.checkClaims(payload);
    return { payload, kid: header['kid'] as string | undefined };
  }

  private remember(token: string, verified: VerifiedToken): void {
    if (this.verifiedCacheSize <= 0) return;
    const until = Math.min(Date.now() + this.verifiedCacheMs, (verified.payload.exp as number) * 1000);
    if (this.verified.size >= this.verifiedCacheSize) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, { token: verified, until });
  }

  private readonly keyObjects = new WeakMap<CryptoKey, KeyObject>();

  private keyObject(cryptoKey: CryptoKey): KeyObject {
    let key = this.keyObjects.get(cryptoKey);
    if (!key) {
      key = KeyObject.from(cryptoKey);
      this.keyObjects.set(cryptoKey, key);
    }
    return key;
  }

  private checkClaims(p: VerifiedToken['payload']): void {
    const now = Math.floor(Date.now() / 1000);
    const tolerance = this.options.clockToleranceSec ?? 5;
    for (const claim of ['exp', 'iat'] as const) {
      if (typeof p[claim] !== 'number') throw new TokenInvalidError(`claim "${claim}" invalid: missing or not a number`);
    }
    if (typeof p.sub !== 'string' || !p.sub) throw new TokenInvalidError('claim "sub" invalid: missing');
    if (p.exp! <= now - tolerance) throw new TokenInvalidError('token expired');
    if (p.nbf !== undefined && (typeof p.nbf !== 'number' || p.nbf > now + tolerance)) {
      throw new TokenInvalidError('claim "nbf" invalid: token is not yet valid');
    }
    if (p.iss !== this.options.issuer) throw new TokenInvalidError('claim "iss" invalid: unexpected issuer');
    const accepted = Array.isArray(this.options.audience) ? this.options.audience : [this.options.audience];
    const audiences = Array.isArray(p.aud) ? p.aud : [p.aud];
    if (!audiences.some((a) => typeof a === 'string' && accepted.includes(a))) {
      throw new TokenInvalidError('claim "aud" invalid: unexpected audience');
    }
  }
}

function parseSegment(segment: string): Record<string, unknown> {
  try {
    const value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw new TokenInvalidError('malformed token');
  }
}

function describe(e: unknown): string {
  if (e instanceof errors.JWTExpired) return 'token expired';
  if (e instanceof errors.JWTClaimValidationFailed) return `claim "${e.claim}" invalid: ${e.reason}`;
  if (e instanceof errors.JOSEAlgNotAllowed) return 'algorithm not allowed (ES256 only)';
  if (e instanceof errors.JWKSNoMatchingKey) return 'no published key matches the token';
  if (e instanceof errors.JWSSignatureVerificationFailed) return 'signature verification failed';
  if (e instanceof errors.JWKSTimeout) return 'key set could not be fetched in time';
  if (e instanceof errors.JOSEError) return e.message;
  return 'malformed token';
}
