import { Inject, Injectable } from '@nestjs/common';
import { ACCESS_TOKEN_AUTHENTICATOR, AccessTokenAuthenticator, AccessTokenRejected, AppPassportStrategy } from '@platform/auth';
import type { Request } from 'express';
import { Strategy } from 'passport-custom';
import { bearerCredential, JWT_SHAPE } from './credentials';

export const IAM_TOKEN_STRATEGY = 'kb-iam-token';

/** A verified iam access token's claims. */
export interface IamTokenCredential {
  kind: 'iam';
  claims: Record<string, unknown>;
}

/**
 * `Authorization: Bearer <iam access token>` for integrations, verified offline by the shared
 * authenticator (a DPoP-bound token is refused as a bearer). A refused token is not a caller: `false`.
 */
@Injectable()
export class IamTokenStrategy extends AppPassportStrategy(Strategy, IAM_TOKEN_STRATEGY) {
  constructor(@Inject(ACCESS_TOKEN_AUTHENTICATOR) private readonly authenticator: AccessTokenAuthenticator) {
    super();
  }

  async validate(req: Request): Promise<IamTokenCredential | false> {
    const token = bearerCredential(req.headers);
    if (!token || !JWT_SHAPE.test(token)) return false;
    try {
      return { kind: 'iam', claims: (await this.authenticator.verify(req, { scheme: 'Bearer', token })).payload };
    } catch (e) {
      if (e instanceof AccessTokenRejected) return false;
      throw e;
    }
  }
}
