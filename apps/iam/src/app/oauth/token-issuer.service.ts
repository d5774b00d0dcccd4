import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { SignJWT } from 'jose';
import { Clock } from '../clock';
import { SigningKeysService } from '../keys/signing-keys.service';

export interface AccessTokenRequest {
  sub: string;
  clientId: string;
  scopes: string[];
  /** auth_time/acr/amr for user tokens. */
  extra?: Record<string, unknown>;
}

export interface IssuedAccessToken {
  token: string;
  jti: string;
  expiresIn: number;
}

/** Signs RFC 9068 access tokens (typ at+jwt) with the active ES256 key. */
@Injectable()
export class TokenIssuer {
  constructor(
    private readonly keys: SigningKeysService,
    private readonly config: ConfigService,
    private readonly clock: Clock,
  ) {}

  get issuer(): string {
    return this.config.getOrThrow<string>('IAM_ISSUER').replace(/\/+$/, '');
  }

  async accessToken(r: AccessTokenRequest): Promise<IssuedAccessToken> {
    const signer = await this.keys.signer();
    const ttl = this.config.get<number>('IAM_ACCESS_TOKEN_TTL_SEC', 900);
    const now = this.clock.nowSec();
    const jti = randomUUID();
    const token = await new SignJWT({ client_id: r.clientId, scope: r.scopes.join(' '), ...r.extra })
      .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: signer.kid })
      .setIssuer(this.issuer)
      .setSubject(r.sub)
      .setAudience(this.config.get<string>('IAM_ACCESS_TOKEN_AUDIENCE', 'platform'))
      .setIssuedAt(now)
      .setExpirationTime(now + ttl)
      .setJti(jti)
      .sign(signer.privateKey);
    return { token, jti, expiresIn: ttl };
  }
}
