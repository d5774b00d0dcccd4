import { Injectable } from '@nestjs/common';
import { AppPassportStrategy } from '@platform/auth';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { TokenIdentities, TokenIdentity } from '../token-identities';
import { bearerCredential } from './credentials';

export const PERSONAL_ACCESS_TOKEN_STRATEGY = 'kb-personal-access-token';

export type PersonalAccessTokenCredential = TokenIdentity & { kind: 'token' };

/**
 * `Authorization: Bearer kbp_…`: a live personal access token of an active user, with the user's
 * authorization in the token's tenant (through TokenIdentityCache: a change made through kb-api
 * applies at once, one written behind its back within TOKEN_IDENTITY_TTL_MS). Any other request,
 * or a token that is unknown, expired or revoked, is not this strategy's: `false`.
 */
@Injectable()
export class PersonalAccessTokenStrategy extends AppPassportStrategy(Strategy, PERSONAL_ACCESS_TOKEN_STRATEGY) {
  constructor(private readonly identities: TokenIdentities) {
    super();
  }

  async validate(req: Request): Promise<PersonalAccessTokenCredential | false> {
    const credential = bearerCredential(req.headers);
    if (!credential?.startsWith('kbp_')) return false;
    const identity = await this.identities.resolve(credential);
    return identity ? { kind: 'token', ...identity } : false;
  }
}
