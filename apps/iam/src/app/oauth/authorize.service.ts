import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomString, SecretHasher } from '@platform/crypto';
import { ClientsRepository } from '../clients/clients.repository';
import { OAuthClient } from '../clients/oauth-client.entity';
import { Clock } from '../clock';
import { GrantsRepository } from '../grants/grants.repository';
import { IamSession } from '../session/session.service';
import { OAuthError } from './oauth-error';
import { grantScopes } from './scopes';

type Query = Record<string, string | undefined>;

/** A failure shown on a page of ours: the redirect_uri could not be trusted. */
export class UntrustedRedirectError extends Error {}

export type AuthorizeOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'login'; returnTo: string };

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * GET /oauth/authorize (RFC 6749 §4.1, PKCE RFC 7636): checks the client and redirect_uri first
 * (failures there are never redirected), then everything else with errors sent back to the
 * redirect_uri, then the session (login when missing, stale or forced), then issues a code.
 */
@Injectable()
export class AuthorizeService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly grants: GrantsRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
    private readonly config: ConfigService,
  ) {}

  private get issuer(): string {
    return this.config.getOrThrow<string>('IAM_ISSUER').replace(/\/+$/, '');
  }

  async authorize(q: Query, originalUrl: string, session: IamSession | undefined): Promise<AuthorizeOutcome> {
    const client = q['client_id'] ? await this.clients.findByClientId(q['client_id']) : null;
    if (!client || client.revokedAt) throw new UntrustedRedirectError('unknown or revoked client_id');
    const redirectUri = this.trustedRedirect(client, q['redirect_uri']);
    const back = (params: Record<string, string>) => {
      const url = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      if (q['state'] !== undefined) url.searchParams.set('state', q['state']);
      url.searchParams.set('iss', this.issuer);
      return { kind: 'redirect' as const, url: url.toString() };
    };
    const fail = (error: string, description: string) => back({ error, error_description: description });

    if (q['response_type'] !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    if (!client.grantTypes.includes('authorization_code')) return fail('unauthorized_client', 'the client may not use the authorization code grant');
    let scopes: string[];
    try {
      scopes = grantScopes(q['scope'], client.scopes);
    } catch (e) {
      return fail('invalid_scope', (e as OAuthError).description);
    }

    const challenge = q['code_challenge'];
    const method = q['code_challenge_method'];
    if (challenge !== undefined || method !== undefined) {
      if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
      if (!challenge || !CHALLENGE.test(challenge)) return fail('invalid_request', 'code_challenge must be a base64url SHA-256 digest');
    } else if (!client.isConfidential && this.config.get<boolean>('OAUTH_REQUIRE_PKCE', true)) {
      return fail('invalid_request', 'PKCE (code_challenge with S256) is required for public clients');
    }

    const prompts = (q['prompt'] ?? '').split(' ').filter(Boolean);
    const maxAge = q['max_age'] !== undefined ? Number(q['max_age']) : undefined;
    if (maxAge !== undefined && (!Number.isInteger(maxAge) || maxAge < 0)) return fail('invalid_request', 'max_age must be a non-negative integer');
    const now = this.clock.nowSec();
    const stale = session && maxAge !== undefined && now - session.authTime > maxAge;
    if (!session || stale || prompts.includes('login')) {
      if (prompts.includes('none')) return fail('login_required', 'the user must sign in');
      // After signing in, come back without prompt=login (or it would loop).
      const url = new URL(originalUrl, this.issuer);
      url.searchParams.delete('prompt');
      return { kind: 'login', returnTo: `${url.pathname}?${url.searchParams.toString()}` };
    }
    if (!client.firstParty) {
      return fail('access_denied', 'consent for third-party clients is not available on this server yet');
    }

    const code = randomString(32);
    const grantId = await this.grants.createGrant(client.clientId, session.sub);
    const ttl = this.config.get<number>('OAUTH_AUTH_CODE_TTL_SEC', 600);
    await this.grants.insertCode({
      code_hash: this.hasher.lookupKey(code),
      grant_id: grantId,
      client_id: client.clientId,
      user_id: session.sub,
      redirect_uri: redirectUri,
      scopes,
      code_challenge: challenge ?? null,
      nonce: q['nonce'] ?? null,
      auth_time: new Date(session.authTime * 1000),
      acr: session.acr,
      amr: session.amr,
      expires_at: new Date(this.clock.now().getTime() + ttl * 1000),
    });
    return back({ code });
  }

  /** Exact string match against the registered URIs; without one, the only registered URI. */
  private trustedRedirect(client: OAuthClient, requested: string | undefined): string {
    if (requested === undefined) {
      if (client.redirectUris.length === 1) return client.redirectUris[0];
      throw new UntrustedRedirectError('redirect_uri is required');
    }
    if (!client.redirectUris.includes(requested)) throw new UntrustedRedirectError('redirect_uri is not registered for this client');
    return requested;
  }
}
