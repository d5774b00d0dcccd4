import { randomUUID, sign } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '@platform/runtime';
import { SigningKeysService } from '../keys/signing-keys.service';
import { IamConfig } from '../../config/iam-config';

export interface AccessTokenRequest {
  sub: string;
  clientId: string;
  scopes: string[];
  /** RFC 8707 resources the token is for; none: the configured default audience. */
  resources?: string[];
  /** RFC 9449: thumbprint of the DPoP key the token is bound to (`cnf.jkt`). */
  jkt?: string;
  /** auth_time/acr/amr for user tokens. */
  extra?: Record<string, unknown>;
}

export interface IssuedAccessToken {
  token: string;
  jti: string;
  expiresIn: number;
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Signs RFC 9068 access tokens (typ at+jwt) with the active ES256 key. */
@Injectable()
export class TokenIssuer {
  /** Read once: configuration is fixed for the life of the process, and this runs per token. */
  readonly issuer: string;
  private readonly ttlSec: number;
  private readonly audience: string;

  constructor(
    private readonly keys: SigningKeysService,
    config: IamConfig,
    private readonly clock: Clock,
  ) {
    this.issuer = config.issuer;
    this.ttlSec = config.get('IAM_ACCESS_TOKEN_TTL_SEC');
    this.audience = config.get('IAM_ACCESS_TOKEN_AUDIENCE');
  }

  async accessToken(r: AccessTokenRequest): Promise<IssuedAccessToken> {
    const signer = await this.keys.signer();
    const now = this.clock.nowSec();
    const jti = randomUUID();
    const header = { alg: 'ES256', typ: 'at+jwt', kid: signer.kid };
    const resources = r.resources ?? [];
    const claims = {
      iss: this.issuer,
      sub: r.sub,
      aud: resources.length === 0 ? this.audience : resources.length === 1 ? resources[0] : resources,
      client_id: r.clientId,
      scope: r.scopes.join(' '),
      iat: now,
      exp: now + this.ttlSec,
      jti,
      ...(r.jkt !== undefined ? { cnf: { jkt: r.jkt } } : {}),
      ...r.extra,
    };
    const input = `${b64url(header)}.${b64url(claims)}`;
    // JWS ES256 (RFC 7518 §3.4): the raw r||s signature, which ieee-p1363 encoding gives directly.
    const signature = sign('sha256', Buffer.from(input), { key: signer.keyObject, dsaEncoding: 'ieee-p1363' });
    return { token: `${input}.${signature.toString('base64url')}`, jti, expiresIn: this.ttlSec };
  }
}
