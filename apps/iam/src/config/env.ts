import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, ValidateBy, ValidationArguments } from 'class-validator';
import { AuthenticatedServiceEnv, KEY_RING_PATTERN, toBoolean } from '@platform/config';

/** A development/test allowance that must never reach production: boot refuses it there. */
function OffInProduction(): PropertyDecorator {
  return ValidateBy({
    name: 'offInProduction',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => !(value === true && (args?.object as IamEnv).NODE_ENV === 'production'),
      defaultMessage: (args?: ValidationArguments) => `${args?.property} must stay off in production`,
    },
  });
}

/** Clients that were never registered are public and must use PKCE S256: they need OAUTH_REQUIRE_PKCE on. */
function NeedsPkce(): PropertyDecorator {
  return ValidateBy({
    name: 'needsPkce',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => value === undefined || value === 'none' || (args?.object as IamEnv).OAUTH_REQUIRE_PKCE !== false,
      defaultMessage: (args?: ValidationArguments) => `${args?.property} needs OAUTH_REQUIRE_PKCE=true (such clients must use PKCE S256)`,
    },
  });
}

/** Every variable iam reads; validated at boot (see .env.example). */
export class IamEnv extends AuthenticatedServiceEnv {
  override PORT: number = 3001;

  /** Health listener of the BullMQ worker process (worker.ts). */
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_HEALTH_PORT: number = 3101;

  /** Envelope-encryption key ring for signing keys, refresh tokens and pending secrets. First key encrypts. */
  @Matches(KEY_RING_PATTERN, { message: 'CRYPTO_KEYRING must be "kid:base64key[,kid:base64key]" with 32-byte keys' })
  CRYPTO_KEYRING: string;

  /** Peppers for the keyed hashes of client secrets and refresh tokens. First one hashes. */
  @Matches(KEY_RING_PATTERN, { message: 'SECRET_PEPPERS must be "kid:base64key[,kid:base64key]" with 32-byte keys' })
  SECRET_PEPPERS: string;

  /** Audience put in access tokens; resource services accept it (their JWT_AUDIENCE). */
  @IsString()
  IAM_ACCESS_TOKEN_AUDIENCE: string = 'platform';

  @IsInt()
  @Min(60)
  @Max(86400)
  IAM_ACCESS_TOKEN_TTL_SEC: number = 900;

  /** Cache lifetime of the JWKS response; a new key is published at least this long before it signs. */
  @IsInt()
  @Min(0)
  @Max(86400)
  IAM_JWKS_MAX_AGE_SEC: number = 300;

  /** `oauth.rate_limit`: requests per minute per client IP on the /oauth group; 0 disables. */
  @IsInt()
  @Min(0)
  OAUTH_RATE_LIMIT: number = 60;

  /** Lifetime of a client's private_key_jwt assertion (exp − iat and exp − now), seconds. */
  @IsInt()
  @Min(10)
  @Max(3600)
  OAUTH_CLIENT_ASSERTION_MAX_LIFETIME_SEC: number = 300;

  /** Demo/bootstrap confidential client (seeded); required in production, defaults in development. */
  @IsOptional()
  @IsString()
  IAM_BOOTSTRAP_CLIENT_ID?: string;

  @IsOptional()
  @IsString()
  IAM_BOOTSTRAP_CLIENT_SECRET?: string;

  /** `oauth.require_pkce`: public clients must use PKCE S256. */
  @Transform(toBoolean)
  @IsBoolean()
  OAUTH_REQUIRE_PKCE: boolean = true;

  /** A scheduled rotation promotes the next signing key once the active one is this old. */
  @IsInt()
  @Min(1)
  @Max(365)
  IAM_SIGNING_KEY_MAX_AGE_DAYS: number = 30;

  /** Development only: public JWKS of the demo private_key_jwt client that `seed` registers. */
  @IsOptional()
  @IsString()
  IAM_DEMO_PRIVATE_KEY_JWT_JWKS?: string;

  /** `oauth.auth_code_ttl`: lifetime of an authorization code, seconds. */
  @IsInt()
  @Min(10)
  @Max(3600)
  OAUTH_AUTH_CODE_TTL_SEC: number = 600;

  /** Lifetime of each refresh token from its issue: a family unused this long ends (RFC 9700 §4.14.2). */
  @IsInt()
  @Min(60)
  IAM_REFRESH_TOKEN_TTL_SEC: number = 14 * 86400;

  /**
   * Absolute lifetime of a refresh token family, from the code exchange that started it. Rotation
   * renews a token's own IAM_REFRESH_TOKEN_TTL_SEC but never this, so a client refreshing every
   * day still signs the user in again at the end of it.
   */
  @IsInt()
  @Min(60)
  IAM_REFRESH_FAMILY_TTL_SEC: number = 90 * 86400;

  /** Lifetime of an interactive session cookie, seconds. */
  @IsInt()
  @Min(60)
  IAM_SESSION_TTL_SEC: number = 8 * 3600;

  /** Failed sign-ins (password or second factor) per account before it is throttled for the window. */
  @IsInt()
  @Min(1)
  IAM_LOGIN_MAX_FAILURES_PER_ACCOUNT: number = 5;

  /** Failed sign-ins per client IP before that IP is throttled for the window. */
  @IsInt()
  @Min(1)
  IAM_LOGIN_MAX_FAILURES_PER_IP: number = 50;

  @IsInt()
  @Min(10)
  IAM_LOGIN_THROTTLE_WINDOW_SEC: number = 900;

  /** Demo/bootstrap user who can sign in interactively; required in production, defaults in development. */
  @IsOptional()
  @IsString()
  IAM_BOOTSTRAP_USER_EMAIL?: string;

  @IsOptional()
  @IsString()
  IAM_BOOTSTRAP_USER_PASSWORD?: string;

  /** WebAuthn relying-party id (a registrable domain); defaults to the issuer's host name. */
  @IsOptional()
  @IsString()
  IAM_WEBAUTHN_RP_ID?: string;

  /** Name authenticators show for this site. */
  @IsString()
  IAM_WEBAUTHN_RP_NAME: string = 'Platform';

  /** Upstream OpenID provider for social login; all three set to turn it on. */
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] })
  IAM_SOCIAL_ISSUER?: string;

  @IsOptional()
  @IsString()
  IAM_SOCIAL_CLIENT_ID?: string;

  @IsOptional()
  @IsString()
  IAM_SOCIAL_CLIENT_SECRET?: string;

  /** Name on the "Continue with …" button. */
  @IsString()
  IAM_SOCIAL_NAME: string = 'single sign-on';

  /** `iam.oauth.client_secret_grace`: how long the previous secret keeps validating after a rotation. */
  @IsInt()
  @Min(0)
  IAM_OAUTH_CLIENT_SECRET_GRACE_SEC: number = 72 * 3600;

  /** Lifetime of new client secrets in seconds; unset: no lifetime. Expiry is soft (alerts only). */
  @IsOptional()
  @IsInt()
  @Min(60)
  IAM_OAUTH_CLIENT_SECRET_TTL?: number;

  /** A secret within this many days of expiry reports `expiring`. */
  @IsInt()
  @Min(0)
  IAM_OAUTH_CLIENT_SECRET_WARN_DAYS: number = 14;

  /**
   * RFC 8707 resource indicators clients may ask tokens for (comma-separated absolute URIs, no
   * fragment): the `aud` of such tokens. Unset: the platform's MCP servers behind the issuer's
   * origin, `{IAM_ISSUER}/mcp/kb` and `{IAM_ISSUER}/evidence-risk-review/mcp`.
   */
  @IsOptional()
  @IsString()
  IAM_RESOURCE_INDICATORS?: string;

  /** RFC 9126: lifetime of a pushed authorization request's request_uri, seconds. */
  @IsInt()
  @Min(10)
  @Max(600)
  OAUTH_PAR_TTL_SEC: number = 60;

  /** How long a pushed request stays usable while the user signs in or consents, seconds. */
  @IsInt()
  @Min(60)
  @Max(86400)
  OAUTH_PAR_INTERACTION_TTL_SEC: number = 1800;

  /** RFC 9126 `require_pushed_authorization_requests` for every client (each client can also require it). */
  @Transform(toBoolean)
  @IsBoolean()
  OAUTH_REQUIRE_PAR: boolean = false;

  /** RFC 9449 §8: DPoP proofs at iam must carry a nonce iam issued (`use_dpop_nonce` otherwise). */
  @Transform(toBoolean)
  @IsBoolean()
  OAUTH_DPOP_NONCE_REQUIRED: boolean = false;

  /** `POST /oauth/client-secret` (self-fetch of an automatically rotated secret); off by default. */
  @Transform(toBoolean)
  @IsBoolean()
  IAM_OAUTH_CLIENT_SELFFETCH: boolean = false;

  /**
   * Hosts whose Client ID Metadata Documents are accepted (a `client_id` that is an https URL):
   * `*` any public host, `*.example.com` a domain and its subdomains, or exact host names,
   * comma-separated; `none` turns the feature off. Unset: off in production, any public host
   * elsewhere (docs/iam.md, "Clients that were never registered").
   */
  @IsOptional()
  @Matches(/^(none|\*|(\*\.)?[a-z0-9.-]+(:\d+)?)(,(\*|(\*\.)?[a-z0-9.-]+(:\d+)?))*$/i, { message: 'IAM_CIMD_HOSTS must be none, * or comma-separated host names (*.domain allowed)' })
  @NeedsPkce()
  IAM_CIMD_HOSTS?: string;

  /**
   * Development and tests only: a metadata document may be served over plain http from a loopback
   * host (127.0.0.1, ::1, localhost), which the address guard otherwise refuses. Refused in production.
   */
  @Transform(toBoolean)
  @IsBoolean()
  @OffInProduction()
  IAM_CIMD_ALLOW_LOOPBACK: boolean = false;

  /** Largest metadata document accepted, bytes. */
  @IsInt()
  @Min(256)
  @Max(65536)
  IAM_CIMD_MAX_BYTES: number = 5120;

  /** Time allowed for fetching a metadata document (connect to last byte), milliseconds. */
  @IsInt()
  @Min(100)
  @Max(30000)
  IAM_CIMD_TIMEOUT_MS: number = 3000;

  /** Longest a fetched document is used before it is fetched again; a shorter max-age (or no-store) from its server wins. */
  @IsInt()
  @Min(0)
  @Max(86400)
  IAM_CIMD_CACHE_SEC: number = 300;

  /**
   * Initial access tokens (RFC 7591 §3) that open `POST /oauth/register`, comma-separated, each
   * 32+ characters from [A-Za-z0-9._~-]. Unset: dynamic registration is off (404, not in discovery).
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._~-]{32,}(,[A-Za-z0-9._~-]{32,})*$/, { message: 'IAM_REGISTRATION_INITIAL_ACCESS_TOKENS must be comma-separated tokens of 32+ characters [A-Za-z0-9._~-]' })
  @NeedsPkce()
  IAM_REGISTRATION_INITIAL_ACCESS_TOKENS?: string;

  /** Scopes a client that was never registered (metadata document or dynamic registration) may be granted, space-separated. */
  @Matches(/^[A-Za-z0-9:._-]+( [A-Za-z0-9:._-]+)*$/, { message: 'IAM_UNREGISTERED_CLIENT_SCOPES must be space-separated scope names' })
  IAM_UNREGISTERED_CLIENT_SCOPES: string = 'openid profile email offline_access kb:read kb:chat mcp:read mcp:tools:propose';
}
