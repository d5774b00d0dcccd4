/**
 * RFC 9728 protected resource metadata and the RFC 6750 / RFC 9449 challenges that point to it:
 * what an MCP client reads after a 401 to learn where to get a token for this resource.
 */

export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** `https://host/mcp/kb` → `https://host/.well-known/oauth-protected-resource/mcp/kb` (RFC 9728 §3.1). */
export function resourceMetadataUrl(resource: string): string {
  const u = new URL(resource);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/+$/, '');
  return `${u.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}`;
}

/** The path under which a resource's metadata is served, e.g. `/.well-known/oauth-protected-resource/mcp/kb`. */
export function resourceMetadataPath(resource: string): string {
  return new URL(resourceMetadataUrl(resource)).pathname;
}

export interface ProtectedResourceDescription {
  /** The resource identifier: the `aud` of tokens for it and the `resource` clients ask iam for. */
  resource: string;
  /** iam's issuer. */
  authorizationServer: string;
  scopes: readonly string[];
  resourceName: string;
  dpopAlgorithms: readonly string[];
  documentation?: string;
}

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: string[];
  resource_name: string;
  dpop_signing_alg_values_supported: string[];
  dpop_bound_access_tokens_required: boolean;
  resource_documentation?: string;
}

export function protectedResourceMetadata(d: ProtectedResourceDescription): ProtectedResourceMetadata {
  return {
    resource: d.resource,
    authorization_servers: [d.authorizationServer.replace(/\/+$/, '')],
    scopes_supported: [...d.scopes],
    bearer_methods_supported: ['header'],
    resource_name: d.resourceName,
    dpop_signing_alg_values_supported: [...d.dpopAlgorithms],
    // Plain bearer tokens stay accepted; a token iam bound to a key is accepted only with its proof.
    dpop_bound_access_tokens_required: false,
    ...(d.documentation ? { resource_documentation: d.documentation } : {}),
  };
}

export type AuthErrorCode = 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof' | 'use_dpop_nonce';

/** Why a request's credential was not enough, and which scheme the client used. */
export interface AuthFailure {
  status: 401 | 403;
  /** Absent when the request carried no credential at all (RFC 6750 §3.1). */
  error?: AuthErrorCode;
  description?: string;
  /** insufficient_scope: the scope(s) that would do. */
  scope?: string;
  scheme: 'Bearer' | 'DPoP';
  /** use_dpop_nonce: the nonce the client must put in its next proof, sent as `DPoP-Nonce`. */
  dpopNonce?: string;
}

export interface ChallengeOptions {
  /** RFC 9728 metadata URL of the resource the route belongs to. */
  resourceMetadata?: string;
  /** When set, a DPoP challenge (RFC 9449 §7.1) is offered beside the Bearer one. */
  dpopAlgorithms?: readonly string[];
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, "'")}"`;

/**
 * `WWW-Authenticate` values: the challenge of the scheme the client used comes first and carries
 * the error, the other scheme follows without one. Clients that only read the first challenge (the
 * MCP SDK reads a leading `Bearer`) find `resource_metadata` in either.
 */
export function wwwAuthenticate(failure: Pick<AuthFailure, 'error' | 'description' | 'scope' | 'scheme'>, options: ChallengeOptions = {}): string[] {
  const build = (scheme: 'Bearer' | 'DPoP', withError: boolean): string => {
    const params: string[] = [];
    if (withError && failure.error) {
      params.push(`error=${quoted(failure.error)}`);
      if (failure.description) params.push(`error_description=${quoted(failure.description)}`);
      if (failure.scope) params.push(`scope=${quoted(failure.scope)}`);
    }
    if (scheme === 'DPoP' && options.dpopAlgorithms?.length) params.push(`algs=${quoted(options.dpopAlgorithms.join(' '))}`);
    if (options.resourceMetadata) params.push(`resource_metadata=${quoted(options.resourceMetadata)}`);
    return params.length ? `${scheme} ${params.join(', ')}` : scheme;
  };
  if (!options.dpopAlgorithms?.length) return [build('Bearer', true)];
  return failure.scheme === 'DPoP' ? [build('DPoP', true), build('Bearer', false)] : [build('Bearer', true), build('DPoP', false)];
}
