import { Injectable } from '@nestjs/common';
import { randomString, SecretHasher } from '@platform/crypto';
import { ClientsRepository } from '../clients/clients.repository';
import { OAuthClient } from '../clients/oauth-client.entity';
import { Clock } from '@platform/runtime';
import { GrantsRepository } from '../grants/grants.repository';
import { ConsentsRepository } from '../consent/consents.repository';
import { AAL_RANK, Aal, IamSession } from '../session/session.service';
import { OAuthError } from './oauth-error';
import { IdTokenHints } from './id-token-hints';
import { AuthorizationParams, PushedRequests } from './pushed-requests';
import { ResourceIndicators } from './resource-indicators';
import { grantScopes } from './scopes';
import { AuthorizeQuery } from './dto/authorize.query';
import { IamConfig } from '../../config/iam-config';
import { FieldErrors, readDto } from '../read-dto';
import { RETURN_TO_MAX_LENGTH } from '../login/return-to';

type Query = AuthorizationParams;

/** A failure shown on a page of ours: the redirect_uri (or the whole request) could not be trusted. */
export class UntrustedRedirectError extends Error {
  constructor(
    message: string,
    readonly error = 'invalid_request',
  ) {
    super(message);
  }
}

/** A parameter that may appear once (the controllers refuse repeats of anything but `resource`). */
const str = (q: Query, k: string): string | undefined => {
  const v = q[k];
  return Array.isArray(v) ? v[0] : v;
};
/** The first of these fields the request's DTO refused, as RFC 6749's invalid_request. */
function refuseInvalid(errors: FieldErrors<AuthorizeQuery>, ...fields: Array<keyof FieldErrors<AuthorizeQuery>>): void {
  for (const field of fields) {
    const message = errors[field];
    if (message !== undefined) throw OAuthError.invalidRequest(message);
  }
}

/** What an authorization request asks for, once checked (at the authorize and PAR endpoints alike). */
export interface CheckedRequest {
  redirectUri: string;
  scopes: string[];
  challenge?: string;
  resources: string[];
  /** RFC 9449 §10: the key the code will be bound to. */
  dpopJkt?: string;
  maxAge?: number;
  required?: Aal;
}

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

/**
 * GET /oauth/authorize (RFC 6749 §4.1, PKCE RFC 7636): checks the client and redirect_uri first
 * (failures there are never redirected), then everything else with errors sent back to the
 * redirect_uri, then the session (login when missing, stale or forced), then issues a code.
 * A `request_uri` (RFC 9126) stands for the parameters the client pushed, used once.
 */
@Injectable()
export class AuthorizeService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly grants: GrantsRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
    private readonly config: IamConfig,
    private readonly consents: ConsentsRepository,
    private readonly pushed: PushedRequests,
    private readonly resourceIndicators: ResourceIndicators,
    private readonly hints: IdTokenHints,
  ) {}

  private get issuer(): string {
    return this.config.issuer;
  }

  /**
   * Everything about an authorization request that does not depend on the user, as the authorize
   * and PAR endpoints both check it; failures are OAuthErrors (sent to the redirect_uri by
   * authorize, answered as JSON by PAR). The redirect_uri itself is checked first, by the caller.
   */
  check(client: OAuthClient, redirectUri: string, q: Query): CheckedRequest {
    // Read through the DTO once; its refusals are raised where the checks they replace stood, so
    // a request with several faults gets the same error as before.
    const { value: request, errors } = readDto(AuthorizeQuery, q);
    // OIDC Core §6: request objects are not supported (a pushed request carries its parameters
    // instead). First: a client using them may send every other parameter inside the object only.
    if (request.request !== undefined) throw new OAuthError('request_not_supported', 'request objects are not supported; push the parameters to the PAR endpoint');
    if (request.response_type !== 'code') throw new OAuthError('unsupported_response_type', 'response_type must be code');
    refuseInvalid(errors, 'response_mode');
    if (!client.grantTypes.includes('authorization_code')) throw OAuthError.unauthorizedClient('the client may not use the authorization code grant');
    refuseInvalid(errors, 'scope');
    const scopes = grantScopes(request.scope, client.scopes);

    refuseInvalid(errors, 'code_challenge_method', 'code_challenge');
    const challenge = request.code_challenge;
    if (challenge === undefined && !client.isConfidential && this.config.get('OAUTH_REQUIRE_PKCE')) {
      throw OAuthError.invalidRequest('PKCE (code_challenge with S256) is required for public clients');
    }
    refuseInvalid(errors, 'resource');
    const resources = this.resourceIndicators.requested(request.resource ?? []);
    refuseInvalid(errors, 'dpop_jkt', 'max_age', 'acr_values');
    const { dpop_jkt: dpopJkt, max_age: maxAge } = request;
    const required = requiredAal(request.acr_values);
    if (required && !REACHABLE.includes(required)) throw new OAuthError('unmet_authentication_requirements', `${required} is not offered by this server`);
    return { redirectUri, scopes, challenge, resources, dpopJkt, maxAge, required };
  }

  async authorize(query: Query, originalUrl: string, session: IamSession | undefined): Promise<AuthorizeOutcome> {
    const clientId = str(query, 'client_id');
    const client = clientId ? await this.clients.findByClientId(clientId) : null;
    if (!client || client.revokedAt) throw new UntrustedRedirectError('unknown or revoked client_id');
    const requestUri = str(query, 'request_uri');
    let q = query;
    let signedInAfter: number | undefined;
    if (requestUri !== undefined) {
      // RFC 9126 §4: only the pushed parameters count; the request_uri is spent whatever follows.
      const pushed = await this.pushed.consume(client.clientId, requestUri);
      if (!pushed) throw new UntrustedRedirectError('request_uri is unknown, expired or already used', 'invalid_request_uri');
      q = { ...pushed.params, client_id: client.clientId };
      signedInAfter = pushed.signedInAfter;
    }
    const redirectUri = this.trustedRedirect(client, str(q, 'redirect_uri'));
    const state = str(q, 'state');
    const back = (params: Record<string, string>) => {
      const url = new URL(redirectUri);
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      if (state !== undefined) url.searchParams.set('state', state);
      url.searchParams.set('iss', this.issuer);
      return { kind: 'redirect' as const, url: url.toString() };
    };
    const fail = (error: string, description: string) => back({ error, error_description: description });

    if (requestUri === undefined && (client.requirePushedAuthorizationRequests || this.config.get('OAUTH_REQUIRE_PAR'))) {
      return fail('invalid_request', 'authorization requests of this client must be pushed to the PAR endpoint first');
    }
    let request: CheckedRequest;
    try {
      request = this.check(client, redirectUri, q);
    } catch (e) {
      if (e instanceof OAuthError) return fail(e.error, e.description);
      throw e;
    }
    const { scopes, maxAge, required } = request;

    const prompts = (str(q, 'prompt') ?? '').split(' ').filter(Boolean);
    const now = this.clock.nowSec();
    const stale =
      session && ((maxAge !== undefined && now - session.authTime > maxAge) || (signedInAfter !== undefined && session.authTime < signedInAfter));
    // Once the user signed in, the same request must not ask again (or it would loop): prompt and
    // max_age are dropped from where the login pages send the browser back. A pushed request was
    // spent above, so it continues under a new single-use request_uri that lives as long as an
    // interaction may take. Its URL is not the client's to keep secret, so what prompt and max_age
    // asked for goes on with it as the time a sign-in must not predate: now, when the user is sent
    // to sign in; what it was, otherwise. (A request that is not pushed can be made afresh by
    // anyone, without prompt or max_age, so its URL needs no such floor.)
    const resume = async (floor = signedInAfter): Promise<string | undefined> => {
      if (requestUri !== undefined) {
        const rest: Query = { ...q, prompt: undefined, max_age: undefined, client_id: undefined };
        const next = await this.pushed.push(client.clientId, rest, this.config.get('OAUTH_PAR_INTERACTION_TTL_SEC'), floor);
        return `/oauth/authorize?${new URLSearchParams({ client_id: client.clientId, request_uri: next }).toString()}`;
      }
      const url = new URL(originalUrl, this.issuer);
      for (const k of ['prompt', 'max_age']) url.searchParams.delete(k);
      const back = `${url.pathname}?${url.searchParams.toString()}`;
      // The sign-in pages carry a way back up to RETURN_TO_MAX_LENGTH only (and refuse a longer
      // one): the request goes back to the client, visibly, rather than being lost after the sign-in.
      return back.length <= RETURN_TO_MAX_LENGTH ? back : undefined;
    };
    const tooLong = () =>
      fail('invalid_request', `the authorization request is too long to continue through the sign-in pages (over ${RETURN_TO_MAX_LENGTH} characters); push it to the PAR endpoint`);
    if (!session || stale || prompts.includes('login')) {
      if (prompts.includes('none')) return fail('login_required', 'the user must sign in');
      const returnTo = await resume(now);
      return returnTo ? { kind: 'login', returnTo } : tooLong();
    }
    // OIDC Core §3.1.2.1: without asking, only the user the client names may be answered for.
    const hint = str(q, 'id_token_hint');
    if (prompts.includes('none') && hint !== undefined && (await this.hints.subject(hint)) !== session.sub) {
      return fail('login_required', 'the signed-in user is not the one id_token_hint names');
    }
    if (required && AAL_RANK[session.acr] < AAL_RANK[required]) {
      if (prompts.includes('none')) return fail('interaction_required', `the session is below ${required}`);
      const returnTo = await resume();
      return returnTo ? { kind: 'step_up', returnTo, required } : tooLong();
    }
    if (!client.firstParty && (prompts.includes('consent') || !(await this.consents.covers(session.sub, client.clientId, scopes)))) {
      if (prompts.includes('none')) return fail('consent_required', 'the user has not allowed this client');
      const returnTo = await resume();
      return returnTo ? { kind: 'consent', returnTo } : tooLong();
    }

    const code = randomString(32);
    const grantId = await this.grants.createGrant(client.clientId, session.sub);
    const ttl = this.config.get('OAUTH_AUTH_CODE_TTL_SEC');
    await this.grants.insertCode({
      code_hash: this.hasher.lookupKey(code),
      grant_id: grantId,
      client_id: client.clientId,
      user_id: session.sub,
      redirect_uri: redirectUri,
      scopes,
      code_challenge: request.challenge ?? null,
      nonce: str(q, 'nonce') ?? null,
      auth_time: new Date(session.authTime * 1000),
      acr: session.acr,
      amr: session.amr,
      resources: request.resources,
      dpop_jkt: request.dpopJkt ?? null,
      expires_at: new Date(this.clock.now().getTime() + ttl * 1000),
    });
    return back({ code });
  }

  /**
   * The parameters behind an authorize URL the login pages carry: its query, or for a pushed
   * request what was pushed (read, not spent). Undefined when the request_uri is no longer usable.
   */
  async pendingRequest(query: Record<string, string>): Promise<Record<string, string | undefined> | undefined> {
    const requestUri = query['request_uri'];
    if (requestUri === undefined) return query;
    const pushed = query['client_id'] ? await this.pushed.peek(query['client_id'], requestUri) : undefined;
    if (!pushed) return undefined;
    const flat: Record<string, string | undefined> = { client_id: query['client_id'] };
    for (const k of Object.keys(pushed)) flat[k] = str(pushed, k);
    return flat;
  }

  /** The redirect a user's refusal on the consent page produces; undefined when the request is not trustworthy. */
  async denied(q: Record<string, string | undefined>): Promise<string | undefined> {
    // From the consent page: only a client already known, never one fetched on its behalf.
    const client = q['client_id'] ? await this.clients.findKnown(q['client_id']) : null;
    if (!client || client.revokedAt) return undefined;
    const url = new URL(this.trustedRedirect(client, q['redirect_uri']));
    url.searchParams.set('error', 'access_denied');
    url.searchParams.set('error_description', 'the user did not allow access');
    if (q['state'] !== undefined) url.searchParams.set('state', q['state']);
    url.searchParams.set('iss', this.issuer);
    return url.toString();
  }

  /** Exact string match against the registered URIs; without one, the only registered URI. */
  trustedRedirect(client: OAuthClient, requested: string | undefined): string {
    if (requested === undefined) {
      if (client.redirectUris.length === 1) return client.redirectUris[0];
      throw new UntrustedRedirectError('redirect_uri is required');
    }
    if (!client.redirectUris.includes(requested)) throw new UntrustedRedirectError('redirect_uri is not registered for this client');
    return requested;
  }
}
