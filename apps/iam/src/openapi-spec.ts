import type { OpenApiSpec } from '@platform/runtime';

/** What iam's generated OpenAPI document says beyond its controllers and DTOs. */
export const OPENAPI_SPEC: OpenApiSpec = {
  title: 'Identity service (iam): OAuth 2.0 / OIDC, client-secret management and sign-in',
  version: '1.0.0',
  description:
    'The authorization server (authorization code with PKCE S256, client credentials, refresh tokens; ES256 access tokens verified offline against the JWKS), the management API under /api/iam/v1 (bearer iam access token carrying the permission as a scope; errors are RFC 9457 problem+json) and the server-rendered sign-in pages under /login (HTML; every form carries a CSRF token). ' +
    'The /oauth group is rate limited per client IP and answers RFC 6749 `{error, error_description}`.',
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An iam ES256 access token; permissions travel as scopes' },
    clientBasic: { type: 'http', scheme: 'basic', description: 'client_id and client_secret (client_secret_basic)' },
    session: { type: 'apiKey', in: 'cookie', name: 'iam_session', description: 'Set by signing in at /login' },
  },
};

/** The env under which the committed document is generated: every optional area on. */
export const OPENAPI_ENV: Record<string, string> = {
  IAM_OAUTH_CLIENT_SELFFETCH: 'true',
  IAM_REGISTRATION_INITIAL_ACCESS_TOKENS: 'openapi-generation-placeholder-token-0000',
};
