import { createRemoteJWKSet, errors, jwtVerify, JWTPayload, JWTVerifyGetKey } from 'jose';

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
}

export interface VerifiedToken {
  payload: JWTPayload & Record<string, unknown>;
  kid?: string;
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

  constructor(private readonly options: JwtVerifierOptions, keys?: JWTVerifyGetKey) {
    this.keys =
      keys ??
      createRemoteJWKSet(new URL(options.jwksUrl), {
        cooldownDuration: options.refetchCooldownMs ?? 5000,
        cacheMaxAge: options.cacheMaxAgeMs ?? 10 * 60 * 1000,
        timeoutDuration: options.timeoutMs ?? 3000,
      });
  }

  async verify(token: string): Promise<VerifiedToken> {
    try {
      const { payload, protectedHeader } = await jwtVerify(token, this.keys, {
        algorithms: ['ES256'],
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: this.options.clockToleranceSec ?? 5,
        typ: this.options.typ,
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      return { payload: payload as VerifiedToken['payload'], kid: protectedHeader.kid };
    } catch (e) {
      throw new TokenInvalidError(describe(e));
    }
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
