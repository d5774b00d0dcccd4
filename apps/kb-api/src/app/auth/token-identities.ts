import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/runtime';
import { Authorization, UserRow, UsersRepository } from '../identity/users.repository';
import { PersonalAccessTokensService, TokenRow } from './personal-access-tokens.service';
import { TokenIdentityCache } from './token-identity-cache';

/** A live personal access token with its active user and their authorization in the token's tenant. */
export interface TokenIdentity {
  token: TokenRow;
  /** Only what authentication needs: the cache holds no password hash or second-factor secret. */
  user: Pick<UserRow, 'id' | 'active'>;
  authorization: Authorization;
}

/** Resolves a bearer `kbp_…` token, through TokenIdentityCache (keyed by the token's keyed hash). */
@Injectable()
export class TokenIdentities {
  constructor(
    private readonly tokens: PersonalAccessTokensService,
    private readonly users: UsersRepository,
    private readonly cache: TokenIdentityCache,
    private readonly clock: Clock,
  ) {}

  async resolve(token: string): Promise<TokenIdentity | null> {
    const key = this.tokens.lookupKeyOf(token);
    if (!key) return null;
    const identity = await this.cache.get(`token:${key}`, () => this.load(key));
    // The database compared expiry with its clock when loading; this process's clock decides at each use.
    if (!identity || identity.token.expires_at.getTime() <= this.clock.nowMs()) return null;
    return identity;
  }

  private async load(key: string) {
    const token = await this.tokens.resolveByLookupKey(key);
    if (!token) return null;
    const user = await this.users.findById(token.user_id);
    if (!user?.active) return null;
    const authorization = await this.users.authorization(user.id, token.tenant_id);
    return {
      value: { token, user: { id: user.id, active: user.active }, authorization },
      userId: user.id,
      validUntil: token.expires_at.getTime(),
    };
  }
}
