import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomString, SecretHasher } from '@platform/crypto';
import { ClientsRepository } from '../clients/clients.repository';
import { OAuthClient } from '../clients/oauth-client.entity';
import { Clock } from '../clock';
import { GrantsRepository } from '../grants/grants.repository';
import { ConsentsRepository } from '../consent/consents.repository';
import { AAL_RANK, Aal, IamSession } from '../session/session.service';
import { OAuthError } from './oauth-error';
import { grantScopes } from './scopes';

type Query = Record<string, string | undefined>;

/** A failure shown on a page of ours: the redirect_uri could not be trusted. */
export class UntrustedRedirectError extends Error {}

export type AuthorizeOutcome =
  | { kind: 'redirect'; url: string }
  /** No usable session: sign in (again). */
  | { kind: 'login'; returnTo: string }
  /** A session, but below the assurance level the client asked for. */
  | { kind: 'step_up'; returnTo: string; required: Aal }
  | { kind: 'consent'; returnTo: string };

/** Levels this server can reach; aal3 needs attested hardware authenticators (see docs/iam.md). */
const REACHABLE: Aal[] = ['aal1', 'aal2'];

/**
 * `acr_values` lists acceptable levels in order of preference; any of them satisfies the request,
 * so the lowest known one is the requirement. Unknown values are ignored (OIDC Core §3.1.2.1:
 * acr_values is a voluntary claim).
 */
export function requiredAal(acrValues: string | undefined): Aal | undefined {
  const known = (acrValues ?? '').split(' ').filter((v): v is Aal => v in AAL_RANK);
  if (!known.length) return undefined;
  return known.reduce((a, b) => (AAL_RANK[b] < AAL_RANK[a] ? b : a));
}

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
    private readonly consents: ConsentsRepository,
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
    const required = requiredAal(q['acr_values']);
    if (required && !REACHABLE.includes(required)) return fail('unmet_authentication_requirements', `${required} is not offered by this server`);
    const now = this.clock.nowSec();
    const stale = session && maxAge !== undefined && now - session.authTime > maxAge;
    // Once the user signed in, the same URL must not ask again (or it would loop): prompt and
    // max_age are dropped from where the login pages send the browser back.
    const resume = (drop: string[]) => {
      const url = new URL(originalUrl, this.issuer);
      for (const k of drop) url.searchParams.delete(k);
      return `${url.pathname}?${url.searchParams.toString()}`;
    };
    if (!session || stale || prompts.includes('login')) {
      if (prompts.includes('none')) return fail('login_required', 'the user must sign in');
      return { kind: 'login', returnTo: resume(['prompt', 'max_age']) };
    }
    if (required && AAL_RANK[session.acr] < AAL_RANK[required]) {
      if (prompts.includes('none')) return fail('interaction_required', `the session is below ${required}`);
      return { kind: 'step_up', returnTo: resume(['prompt', 'max_age']), required };
    }
    if (!client.firstParty && (prompts.includes('consent') || !(await this.consents.covers(session.sub, client.clientId, scopes)))) {
      if (prompts.includes('none')) return fail('consent_required', 'the user has not allowed this client');
      return { kind: 'consent', returnTo: resume(['prompt', 'max_age']) };
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

  /** The redirect a user's refusal on the consent page produces; undefined when the request is not trustworthy. */
  async denied(q: Query): Promise<string | undefined> {
    const client = q['client_id'] ? await this.clients.findByClientId(q['client_id']) : null;
    if (!client || client.revokedAt) return undefined;
    const url = new URL(this.trustedRedirect(client, q['redirect_uri']));
    url.searchParams.set('error', 'access_denied');
    url.searchParams.set('error_description', 'the user did not allow access');
    if (q['state'] !== undefined) url.searchParams.set('state', q['state']);
    url.searchParams.set('iss', this.issuer);
    return url.toString();
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
