import { Inject, Injectable } from '@nestjs/common';
import { claimDpopProof, DpopProof, DpopProofError, dpopHeader, verifyDpopProof } from '@platform/auth';
import { REDIS_CLIENT } from '@platform/contracts';
import { SecretHasher } from '@platform/crypto';
import type Redis from 'ioredis';
import { Clock } from '@platform/runtime';
import { OAuthError } from './oauth-error';
import { IamConfig } from '../../config/iam-config';

/** A nonce names a time window; the current and the previous one are accepted. */
const NONCE_WINDOW_SEC = 60;

/**
 * DPoP at iam's token and PAR endpoints (RFC 9449): the proof checks of libs/shared/auth, nonces
 * iam issues (§8), and the jti replay memory in Redis so every replica refuses a replayed proof.
 * Nonces are a keyed hash of the time window under the secret pepper: any replica can issue and
 * check them without shared state.
 */
@Injectable()
export class DpopProofs {
  private readonly nonceRequired: boolean;

  constructor(
    private readonly clock: Clock,
    private readonly hasher: SecretHasher,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
    config: IamConfig,
  ) {
    this.nonceRequired = config.get('OAUTH_DPOP_NONCE_REQUIRED');
  }

  /**
   * The request's proof, verified for `POST url` (and its nonce when nonces are required), or
   * undefined without a DPoP header. Its jti is not yet remembered: `claim` does that once the
   * client is authenticated, so a refused request burns nothing.
   */
  async verify(header: string | string[] | undefined, url: string): Promise<DpopProof | undefined> {
    let proof: DpopProof;
    try {
      const value = dpopHeader(header);
      if (value === undefined) return undefined;
      proof = await verifyDpopProof(value, { method: 'POST', url, now: this.clock.nowSec() });
    } catch (e) {
      if (e instanceof DpopProofError) throw OAuthError.invalidDpopProof(e.message);
      throw e;
    }
    if (this.nonceRequired && (proof.nonce === undefined || !this.validNonce(proof.nonce))) {
      throw new OAuthError('use_dpop_nonce', 'the DPoP proof must carry the nonce given in the DPoP-Nonce header', 400, this.nonceHeader());
    }
    return proof;
  }

  /** Refuses a proof whose jti was seen before (with the same key). */
  async claim(proof: DpopProof): Promise<void> {
    if (!(await claimDpopProof(this.redis, 'iam:dpop-jti:', proof))) throw OAuthError.invalidDpopProof('DPoP proof replayed');
  }

  /** `DPoP-Nonce` to send with an answer, when nonces are in use (a fresh one on every answer). */
  nonceHeader(): Record<string, string> {
    return this.nonceRequired ? { 'DPoP-Nonce': this.nonceFor(Math.floor(this.clock.nowSec() / NONCE_WINDOW_SEC)) } : {};
  }

  private validNonce(nonce: string): boolean {
    const window = Math.floor(this.clock.nowSec() / NONCE_WINDOW_SEC);
    return nonce === this.nonceFor(window) || nonce === this.nonceFor(window - 1);
  }

  private nonceFor(window: number): string {
    // The hash's own prefix (version, pepper id) is dropped: the nonce is an opaque value.
    return this.hasher.lookupKey(`dpop-nonce:${window}`).split('.').pop()!;
  }
}
