import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { randomString } from '@platform/crypto';
import { createRemoteJWKSet, JWTPayload, jwtVerify } from 'jose';
import { Aal } from '../../session/session.service';
import { FederatedIdentitiesRepository } from './federated-identities.repository';
import { upstreamAal } from './upstream-aal';
import { IamConfig } from '../../../config/iam-config';

interface UpstreamMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

export interface SocialStart {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

export type SocialOutcome = { kind: 'ok'; userId: string; acr: Aal; amr: string[] } | { kind: 'refused'; reason: string };

/**
 * Sign-in through an upstream OpenID provider (authorization code with PKCE, client_secret_basic).
 * The id_token is verified against the upstream's JWKS (issuer, audience, nonce). A first sign-in
 * links to an existing account only through an email the upstream marks as verified.
 */
@Injectable()
export class SocialLoginService {
  private metadata?: Promise<UpstreamMetadata>;
  private jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    private readonly config: IamConfig,
    private readonly identities: FederatedIdentitiesRepository,
  ) {}

  get enabled(): boolean {
    return !!(this.config.get('IAM_SOCIAL_ISSUER') && this.config.get('IAM_SOCIAL_CLIENT_ID') && this.config.get('IAM_SOCIAL_CLIENT_SECRET'));
  }

  get displayName(): string {
    return this.config.get('IAM_SOCIAL_NAME');
  }

  private get callbackUrl(): string {
    return `${this.config.issuer}/login/social/callback`;
  }

  private discover(): Promise<UpstreamMetadata> {
    this.metadata ??= (async () => {
      const issuer = this.config.required('IAM_SOCIAL_ISSUER').replace(/\/+$/, '');
      const r = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5000) });
      if (!r.ok) throw new Error(`upstream discovery answered ${r.status}`);
      const m = (await r.json()) as UpstreamMetadata;
      if (m.issuer.replace(/\/+$/, '') !== issuer) throw new Error('upstream discovery names another issuer');
      return m;
    })().catch((e) => {
      this.metadata = undefined;
      throw e;
    });
    return this.metadata;
  }

  async start(): Promise<SocialStart> {
    const m = await this.discover();
    const state = randomString(24);
    const nonce = randomString(24);
    const verifier = randomString(48);
    const url = new URL(m.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.config.required('IAM_SOCIAL_CLIENT_ID'),
      redirect_uri: this.callbackUrl,
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    return { url: url.toString(), state, nonce, verifier };
  }

  async finish(code: string, nonce: string, verifier: string): Promise<SocialOutcome> {
    const m = await this.discover();
    const clientId = this.config.required('IAM_SOCIAL_CLIENT_ID');
    const secret = this.config.required('IAM_SOCIAL_CLIENT_SECRET');
    const r = await fetch(m.token_endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: this.callbackUrl, code_verifier: verifier }),
      signal: AbortSignal.timeout(10000),
    });
    const tokens = (await r.json().catch(() => ({}))) as { id_token?: string };
    if (!r.ok || !tokens.id_token) return { kind: 'refused', reason: 'The provider did not complete the sign-in.' };
    this.jwks ??= createRemoteJWKSet(new URL(m.jwks_uri));
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(tokens.id_token, this.jwks, { issuer: m.issuer, audience: clientId }));
    } catch {
      return { kind: 'refused', reason: 'The provider sent an identity we could not verify.' };
    }
    if (claims['nonce'] !== nonce || !claims.sub) return { kind: 'refused', reason: 'The provider sent an identity we could not verify.' };
    const userId = await this.linkedUser(m.issuer, claims.sub, claims);
    if (!userId) return { kind: 'refused', reason: 'Your account at the provider has no verified email address, so it cannot be linked to an account here.' };
    const acr = upstreamAal(claims['acr'], claims['amr']);
    return { kind: 'ok', userId, acr, amr: acr === 'aal2' ? ['fed', 'mfa'] : ['fed'] };
  }

  /**
   * The account this upstream identity signs into: the one linked before; else the account with
   * the same verified email (then linked); else a new account for that verified email. An
   * unverified email never links or creates anything.
   */
  private linkedUser(issuer: string, subject: string, claims: JWTPayload): Promise<string | undefined> {
    const email = typeof claims['email'] === 'string' ? claims['email'].trim().toLowerCase() : '';
    return this.identities.accountFor({
      issuer,
      subject,
      verifiedEmail: email && claims['email_verified'] === true ? email : undefined,
      name: typeof claims['name'] === 'string' ? claims['name'] : '',
    });
  }
}
