import { Inject, Injectable } from '@nestjs/common';
import { REDIS_CLIENT } from '@platform/contracts';
import type Redis from 'ioredis';
import { createLocalJWKSet, JWTPayload, jwtVerify } from 'jose';
import { ClientsRepository } from '../clients/clients.repository';
import { Clock } from '@platform/runtime';
import { GrantsRepository } from '../grants/grants.repository';
import { SigningKeysService } from '../keys/signing-keys.service';
import { UsersRepository } from '../users/users.repository';
import { TokenIssuer } from './token-issuer.service';

export type AccessClaims = JWTPayload & { client_id: string; scope: string; sid?: string; cnf?: { jkt?: string } };

/**
 * iam's own check of its access tokens (userinfo, introspection, revocation): signature against
 * the published keys, and — unlike offline verifiers — revocation: a revoked jti, a revoked
 * grant, a revoked client or a user no longer active makes the token inactive at once.
 */
@Injectable()
export class LocalTokenVerifier {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly issuer: TokenIssuer,
    private readonly grants: GrantsRepository,
    private readonly clients: ClientsRepository,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    @Inject(REDIS_CLIENT) private readonly redis: Redis,
  ) {}

  /** The claims of an active access token, or undefined. */
  active(token: string): Promise<AccessClaims | undefined> {
    return this.verify(token, { userState: true });
  }

  /**
   * The claims of a token revocation may act on (RFC 7009): every check of `active` but the
   * user's state, so a deactivated user's token is revoked too and stays dead on reactivation.
   */
  revocable(token: string): Promise<AccessClaims | undefined> {
    return this.verify(token, { userState: false });
  }

  private async verify(token: string, checks: { userState: boolean }): Promise<AccessClaims | undefined> {
    let payload: AccessClaims;
    try {
      ({ payload } = (await jwtVerify(token, createLocalJWKSet({ keys: await this.keys.publishedKeys() }), {
        algorithms: ['ES256'],
        issuer: this.issuer.issuer,
        typ: 'at+jwt',
        currentDate: this.clock.now(),
      })) as { payload: AccessClaims });
    } catch {
      return undefined;
    }
    if (payload.jti && (await this.redis.exists(this.revokedKey(payload.jti)))) return undefined;
    if (payload.sid && (await this.grants.isGrantRevoked(payload.sid))) return undefined;
    const client = await this.clients.findByClientId(payload.client_id);
    if (!client || client.revokedAt) return undefined;
    // A user's token (it names its grant) lives only while the user does: refresh and sign-in
    // already refuse a deactivated user, and every check made here answers the same. A deleted
    // user's grants are gone with the user, which the grant check above answers.
    if (checks.userState && payload.sid !== undefined) {
      const user = typeof payload.sub === 'string' ? await this.users.findById(payload.sub) : null;
      if (!user?.active) return undefined;
    }
    return payload;
  }

  /** Remembers a revoked access token until it would have expired anyway. */
  async revokeAccessToken(claims: AccessClaims): Promise<void> {
    await this.revokeJti(claims.jti!, claims.exp ?? 0);
  }

  /** Revokes the access token `jti` that expires (at the latest) at `exp`, epoch seconds. */
  async revokeJti(jti: string, exp: number): Promise<void> {
    const ttl = Math.max(1, exp - this.clock.nowSec() + 60);
    await this.redis.set(this.revokedKey(jti), '1', 'EX', ttl);
  }

  private revokedKey(jti: string): string {
    return `iam:revoked-jti:${jti}`;
  }
}
