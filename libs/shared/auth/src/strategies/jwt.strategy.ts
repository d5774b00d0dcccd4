import { Inject, Injectable } from '@nestjs/common';
import { Strategy } from 'passport-custom';
import { AccessTokenAuthenticator, AuthenticatedRequestLike, AuthenticatedToken } from '../access-token-authenticator';
import { ACCESS_TOKEN_AUTHENTICATOR } from '../tokens';
import { AppPassportStrategy } from './strategy-instances';

/** Passport name of iam's access tokens (Bearer, or DPoP with its proof), verified offline. */
export const JWT_STRATEGY = 'jwt';

/**
 * iam's access tokens as a passport strategy: the shared authenticator reads the Authorization
 * header (and the DPoP proof) and verifies the token against the cached JWKS. A refusal is thrown
 * as `AccessTokenRejected`, which carries the RFC 6750 / RFC 9449 challenge the guard answers with.
 */
@Injectable()
export class JwtStrategy extends AppPassportStrategy(Strategy, JWT_STRATEGY) {
  constructor(@Inject(ACCESS_TOKEN_AUTHENTICATOR) private readonly authenticator: AccessTokenAuthenticator) {
    super();
  }

  validate(req: AuthenticatedRequestLike): Promise<AuthenticatedToken> {
    return this.authenticator.authenticate(req);
  }
}
