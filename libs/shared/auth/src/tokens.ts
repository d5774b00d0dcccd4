/** Nest injection tokens of @platform/auth, apart so the module and the guard do not import each other. */
export const JWT_VERIFIER = Symbol.for('platform.JWT_VERIFIER');
export const ACCESS_TOKEN_AUTHENTICATOR = Symbol.for('platform.ACCESS_TOKEN_AUTHENTICATOR');
export const AUTH_RESOURCE = Symbol.for('platform.AUTH_RESOURCE');
/** Milliseconds since the epoch; override the provider to move time in tests. */
export const AUTH_CLOCK = Symbol.for('platform.AUTH_CLOCK');

/** This service as an OAuth protected resource (RFC 8707 / RFC 9728), from its config. */
export interface AuthResource {
  /** OAUTH_RESOURCE: the service's resource identifier, when it has one. */
  resource?: string;
  /** Its RFC 9728 metadata URL. */
  metadataUrl?: string;
  /** iam's issuer, the authorization server named in the metadata. */
  issuer: string;
  /** Every audience a token may name to be accepted here. */
  audiences: string[];
}
