import type { IncomingHttpHeaders } from 'node:http';
import { claimDpopProof, DPOP_DEFAULT_CLOCK_SKEW_SEC, DPOP_DEFAULT_MAX_AGE_SEC, DPOP_SIGNING_ALGS, DpopProofError, dpopHeader, DpopReplayStore, verifyDpopProof } from './dpop';
import type { DpopNonces } from './dpop-nonce';
import { JwtVerifier, TokenInvalidError, VerifiedToken } from './jwt-verifier';
import type { AuthFailure } from './protected-resource';

/** What the authenticator needs of a request (Express's, or a lean route's). */
export interface AuthenticatedRequestLike {
  method: string;
  /** The path and query as received (Express's originalUrl, else url). */
  originalUrl?: string;
  url?: string;
  headers: IncomingHttpHeaders;
}

export interface PresentedAccessToken {
  scheme: 'Bearer' | 'DPoP';
  token: string;
}

export class AccessTokenRejected extends Error {
  constructor(readonly failure: AuthFailure) {
    super(failure.description ?? failure.error ?? 'unauthenticated');
    this.name = 'AccessTokenRejected';
  }
}

export interface AccessTokenAuthenticatorOptions {
  /**
   * Origin clients address this service at (the gateway's public origin): a DPoP proof's `htu` must
   * name it with the request's path, since the service itself sees only the forwarded path.
   */
  publicOrigin: string;
  /** Where proof ids are remembered (Redis); without one, DPoP-bound tokens are refused (fail closed). */
  replay?: DpopReplayStore;
  /** Redis key prefix of the replay memory. */
  replayPrefix?: string;
  /** Milliseconds since the epoch; injectable so tests move time instead of sleeping. */
  now?: () => number;
  dpopMaxAgeSec?: number;
  dpopClockSkewSec?: number;
  /**
   * When set, every DPoP proof must carry a nonce this service issued (RFC 9449 §9); without one,
   * or with a stale or foreign one, the answer is 401 `use_dpop_nonce` with a fresh nonce.
   */
  dpopNonces?: DpopNonces;
}

/** A verified token; `dpopNonce` is a fresh nonce to send (`DPoP-Nonce`) when the proof's is about to go stale. */
export type AuthenticatedToken = VerifiedToken & { dpopNonce?: string };

const TOKEN68 = /^(Bearer|DPoP) ([A-Za-z0-9._~+/-]+=*)$/i;

/**
 * One mechanism for every resource server: reads `Authorization: Bearer|DPoP <jwt>` (and the
 * `DPoP` proof), verifies the token offline and, for a token bound to a key (`cnf.jkt`), the proof:
 * htm, htu, iat window, `ath`, the key, the server nonce when one is required, then the proof id
 * against replay. A bound token presented
 * as a plain bearer is refused; so is an unbound one presented with the DPoP scheme.
 */
export class AccessTokenAuthenticator {
  private readonly now: () => number;
  private readonly origin: string;

  constructor(
    private readonly verifier: JwtVerifier,
    private readonly options: AccessTokenAuthenticatorOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.origin = new URL(options.publicOrigin).origin;
  }

  /** Proof algorithms accepted (advertised in DPoP challenges and resource metadata). */
  get dpopAlgorithms(): readonly string[] {
    return DPOP_SIGNING_ALGS;
  }

  /** The credential in the Authorization header: null without one, 'malformed' for any other form. */
  static presented(headers: IncomingHttpHeaders): PresentedAccessToken | null | 'malformed' {
    const header = headers.authorization;
    if (typeof header !== 'string' || header.length === 0) return null;
    const m = TOKEN68.exec(header);
    if (!m) return 'malformed';
    return { scheme: m[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: m[2] };
  }

  async authenticate(req: AuthenticatedRequestLike): Promise<AuthenticatedToken> {
    const presented = AccessTokenAuthenticator.presented(req.headers);
    if (presented === null) throw new AccessTokenRejected({ status: 401, error: 'invalid_request', description: 'a bearer access token is required', scheme: 'Bearer' });
    if (presented === 'malformed') throw new AccessTokenRejected({ status: 401, error: 'invalid_request', description: 'the Authorization header must be Bearer or DPoP with a token', scheme: 'Bearer' });
    return this.verify(req, presented);
  }

  async verify(req: AuthenticatedRequestLike, presented: PresentedAccessToken): Promise<AuthenticatedToken> {
    const fail = (error: AuthFailure['error'], description: string): never => {
      throw new AccessTokenRejected({ status: 401, error, description, scheme: presented.scheme });
    };
    let verified: VerifiedToken;
    try {
      verified = await this.verifier.verify(presented.token, { allowBound: presented.scheme === 'DPoP' });
    } catch (e) {
      return fail('invalid_token', e instanceof TokenInvalidError ? e.message : 'invalid token');
    }
    // A bearer presentation of an unbound token ignores any DPoP header; a bound one was refused above.
    if (presented.scheme === 'Bearer') return verified;
    const jkt = boundKey(verified.payload);
    if (!jkt) return fail('invalid_token', 'the token is not bound to a DPoP key: present it as a bearer token');
    if (!this.options.replay) return fail('invalid_token', 'DPoP proofs cannot be checked here');
    const maxAgeSec = this.options.dpopMaxAgeSec ?? DPOP_DEFAULT_MAX_AGE_SEC;
    const clockSkewSec = this.options.dpopClockSkewSec ?? DPOP_DEFAULT_CLOCK_SKEW_SEC;
    let rotated: string | undefined;
    try {
      const proofJwt = dpopHeader(req.headers.dpop);
      if (!proofJwt) return fail('invalid_dpop_proof', 'a DPoP proof is required with a DPoP-bound token');
      const path = req.originalUrl ?? req.url ?? '/';
      const proof = await verifyDpopProof(proofJwt, {
        method: req.method,
        url: `${this.origin}${path.startsWith('/') ? path : `/${path}`}`,
        accessToken: presented.token,
        now: Math.floor(this.now() / 1000),
        maxAgeSec,
        clockSkewSec,
      });
      if (proof.jkt !== jkt) return fail('invalid_dpop_proof', 'the DPoP proof is signed by another key than the token is bound to');
      const nonces = this.options.dpopNonces;
      if (nonces) {
        const nowMs = this.now();
        const nonce = nonces.check(proof.nonce, nowMs);
        // Before the replay check: the client answers with a new proof, so this one's id is not used up.
        if (nonce === 'invalid') {
          throw new AccessTokenRejected({
            status: 401,
            error: 'use_dpop_nonce',
            description: proof.nonce === undefined ? 'the DPoP proof must carry the server-provided nonce' : 'the DPoP proof nonce is invalid or stale',
            scheme: 'DPoP',
            dpopNonce: nonces.issue(nowMs),
          });
        }
        // Still accepted, but from the previous window: hand out the current one so the client rotates in time.
        if (nonce === 'previous') rotated = nonces.issue(nowMs);
      }
      // Last, so a proof refused for any other reason does not use up its id.
      if (!(await claimDpopProof(this.options.replay, this.options.replayPrefix ?? 'dpop:rs:', proof, maxAgeSec, clockSkewSec))) {
        return fail('invalid_dpop_proof', 'the DPoP proof was already used');
      }
    } catch (e) {
      if (e instanceof DpopProofError) return fail('invalid_dpop_proof', e.message);
      throw e;
    }
    return rotated ? { ...verified, dpopNonce: rotated } : verified;
  }
}

/** `cnf.jkt` of a DPoP-bound token (RFC 9449 §6.1), or undefined. */
export function boundKey(payload: Record<string, unknown>): string | undefined {
  const cnf = payload['cnf'];
  if (cnf === null || typeof cnf !== 'object') return undefined;
  const jkt = (cnf as Record<string, unknown>)['jkt'];
  return typeof jkt === 'string' && jkt.length > 0 ? jkt : undefined;
}
