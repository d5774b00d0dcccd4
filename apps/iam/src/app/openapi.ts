import { SCOPE_CATALOG } from './oauth/scopes';

/**
 * OpenAPI 3.1 description of iam: the OAuth 2.0 / OIDC endpoints, the management API and the
 * server-rendered sign-in pages. Served at /api/iam/openapi.json and committed as
 * docs/api/iam.openapi.json (npm run openapi).
 */
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const dateTime = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const media = (type: string, schema: object) => ({ [type]: { schema } });
const json = (schema: object) => media('application/json', schema);
const answer = (description: string, content?: object) => (content ? { description, content } : { description });
const form = (schema: object, required = true) => ({ required, content: media('application/x-www-form-urlencoded', schema) });
const jsonBody = (schema: object, required = true) => ({ required, content: json(schema) });
const obj = (properties: Record<string, object>, required?: string[]) => ({ type: 'object', properties, ...(required?.length ? { required } : {}) });
const query = (name: string, schema: object, description?: string, required = false) => ({ name, in: 'query', required, schema, ...(description ? { description } : {}) });

/** An OAuth error `{error, error_description}` (RFC 6749 §5.2). */
const oauthError = (description: string) => answer(description, json(ref('OAuthError')));
const rateLimited = oauthError('The per-IP limit of the /oauth group (OAUTH_RATE_LIMIT per minute) is spent; Retry-After says when to try again');
const problem = (description: string) => answer(description, media('application/problem+json', ref('Problem')));
/** Every sign-in page answers HTML, its errors too (a page that shows the message next to the field). */
const page = (description: string) => answer(description, media('text/html', str));
const redirect = (description: string) => answer(description);

const returnTo = query('return_to', { type: 'string', maxLength: 2048 }, 'Where to go after signing in: only `/oauth/authorize?…` or `/login/account` are followed, anything else goes to the account page');
const csrf = { type: 'string', description: 'The CSRF token of the form (a keyed hash of the csrf cookie)' };
const appParam = { name: 'app', in: 'path', required: true, description: 'Application key (the client id is `cli_<app>`)', schema: { type: 'string', minLength: 1, maxLength: 100 } };
const idempotencyKey = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  description: 'Required on every write: a repeat with the same request replays the first answer (`Idempotency-Replayed: true`); the same key with another request is 422',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};
const managementErrors = {
  '401': problem('No valid iam access token'),
  '403': problem('The token lacks the scope'),
  '404': problem('No such application'),
};
const clientAuth =
  'Client authentication: HTTP Basic (`client_secret_basic`), `client_id` + `client_secret` in the body (`client_secret_post`), `client_assertion` (`private_key_jwt`, ES256) or `client_id` alone for a public client. Failed client authentication is 401 `invalid_client`.';
const clientAuthFields = {
  client_id: str,
  client_secret: str,
  client_assertion_type: { const: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' },
  client_assertion: { type: 'string', description: 'ES256 JWT signed by the client (private_key_jwt)' },
};
const resourceParam = {
  type: 'array',
  items: { type: 'string', format: 'uri' },
  description: 'RFC 8707 resource indicator, repeatable: the access token\'s `aud`; each must be one of IAM_RESOURCE_INDICATORS (`resources_supported` in discovery), else `invalid_target`',
};
const dpopHeader = {
  name: 'DPoP',
  in: 'header',
  required: false,
  description: 'RFC 9449 proof (a `dpop+jwt` signed by the client\'s key, htm POST, htu this endpoint); with it the access token is bound to the key (`token_type: DPoP`, `cnf.jkt`)',
  schema: str,
};
const discovery = {
  summary: 'OpenID Provider / RFC 8414 authorization server metadata (both URLs serve the same document)',
  security: [],
  responses: { '200': answer('The metadata; Cache-Control: public, max-age=300', json(ref('Discovery'))) },
};
const userinfo = (summary: string) => ({
  summary,
  description: 'Needs an access token with `openid`; `email` and `profile` add claims.',
  security: [{ bearer: [] }],
  responses: {
    '200': answer('The claims of the signed-in user', json(obj({ sub: str, email: str, email_verified: bool, name: str }, ['sub']))),
    '401': oauthError('No token, or an invalid, expired or revoked one (`invalid_token`, WWW-Authenticate: Bearer)'),
    '403': oauthError('The token lacks `openid` (`insufficient_scope`)'),
  },
});
const codeForm = obj({ csrf, return_to: str, code: { type: 'string', maxLength: 100, description: 'A 6-digit TOTP code or a recovery code (xxxxx-xxxxx)' } }, ['csrf']);
const codePage = (summary: string) => ({
  summary,
  requestBody: form(codeForm),
  responses: {
    '303': redirect('Verified: on to return_to'),
    '401': page('Wrong code, or the sign-in is no longer pending'),
    '403': page('The form expired (CSRF)'),
    '429': page('Too many failed codes for this account'),
  },
});
const accountChange = (summary: string, extra: Record<string, object> = {}) => ({
  summary,
  description: 'Needs a session that proved a second factor recently; otherwise the browser goes to sign in or step up.',
  security: [{ session: [] }],
  requestBody: form(obj({ csrf, ...extra }, ['csrf'])),
  responses: { '303': redirect('Done, or to sign in or step up first'), '403': page('The form expired (CSRF)') },
});
const passkeyRefused = answer('Refused `{message}`', json(ref('Message')));

export const IAM_OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'Identity service (iam): OAuth 2.0 / OIDC, client-secret management and sign-in',
    version: '1.0.0',
    description:
      'The authorization server (authorization code with PKCE S256, client credentials, refresh tokens; ES256 access tokens verified offline against the JWKS), the management API under /api/iam/v1 (bearer iam access token carrying the permission as a scope; errors are RFC 9457 problem+json) and the server-rendered sign-in pages under /login (HTML; every form carries a CSRF token). ' +
      'The /oauth group is rate limited per client IP and answers RFC 6749 `{error, error_description}`.',
  },
  servers: [{ url: '/' }],
  paths: {
    '/.well-known/openid-configuration': { get: discovery },
    '/.well-known/oauth-authorization-server': { get: discovery },
    '/.well-known/jwks.json': {
      get: {
        summary: 'The public signing keys (next, active and retiring)',
        security: [],
        responses: { '200': answer('JWK set; Cache-Control: public, max-age=IAM_JWKS_MAX_AGE_SEC', json(obj({ keys: { type: 'array', items: { type: 'object' } } }, ['keys']))) },
      },
    },
    '/oauth/authorize': {
      get: {
        summary: 'Authorization request (response_type=code, PKCE S256)',
        description:
          'Without a usable session the browser goes to the sign-in pages (then step-up and consent as needed) and comes back. The answer redirects to redirect_uri with `code`, `state` and `iss`, or with `error`. A request whose client or redirect_uri cannot be trusted, or whose `request_uri` is unknown, expired or used, gets an HTML error page instead of a redirect. Each parameter appears at most once, except `resource`. With `request_uri` (from POST /oauth/par) only the pushed parameters count; a client that requires PAR (or OAUTH_REQUIRE_PAR) gets `invalid_request` without one.',
        security: [{ session: [] }],
        parameters: [
          query('response_type', { const: 'code' }, undefined, true),
          query('client_id', { type: 'string', maxLength: 200 }, undefined, true),
          query('redirect_uri', { type: 'string', format: 'uri' }, 'One of the client\'s registered redirect URIs'),
          query('scope', str, 'Space-separated scopes'),
          query('state', str),
          query('nonce', str, 'Copied into the id_token'),
          query('code_challenge', { type: 'string', pattern: '^[A-Za-z0-9_-]{43,128}$' }, 'BASE64URL(SHA-256(code_verifier)); required for public clients'),
          query('code_challenge_method', { const: 'S256' }),
          query('prompt', { enum: ['none', 'login', 'consent'] }),
          query('max_age', { type: 'integer', minimum: 0 }, 'Seconds since the last sign-in beyond which the user signs in again'),
          query('acr_values', str, 'Space-separated acceptable levels (`aal1`, `aal2`); the lowest known one is required'),
          { name: 'resource', in: 'query', required: false, schema: resourceParam, style: 'form', explode: true },
          query('request_uri', { type: 'string', pattern: '^urn:ietf:params:oauth:request_uri:' }, 'A pushed request (RFC 9126), usable once'),
          query('dpop_jkt', { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' }, 'RFC 9449 §10: the code is redeemed only with a DPoP proof of this key'),
        ],
        responses: {
          '302': redirect('To redirect_uri (code or error), or to /login, /login/step-up or /login/consent'),
          '400': page('The client or redirect_uri cannot be trusted, or a parameter is repeated (HTML error page)'),
          '429': rateLimited,
        },
      },
    },
    '/oauth/token': {
      post: {
        summary: 'Token endpoint: authorization_code, client_credentials, refresh_token',
        description: `${clientAuth} A refresh token is rotated on every use; presenting a used one ends its whole family. A public client's refresh token issued with a DPoP proof works only with a proof of the same key. \`resource\` narrows the grant's resources (none: all of them; none granted: the default audience). With OAUTH_DPOP_NONCE_REQUIRED a proof must carry the nonce of the \`DPoP-Nonce\` header (400 \`use_dpop_nonce\` gives one). Answers carry Cache-Control: no-store.`,
        security: [{ clientBasic: [] }, {}],
        parameters: [dpopHeader],
        requestBody: form(
          obj(
            {
              grant_type: { enum: ['authorization_code', 'client_credentials', 'refresh_token'] },
              code: str,
              code_verifier: { type: 'string', pattern: '^[A-Za-z0-9._~-]{43,128}$' },
              redirect_uri: { type: 'string', format: 'uri' },
              refresh_token: str,
              scope: { type: 'string', description: 'Space-separated; an unknown scope is invalid_scope, a known one the client may not have is dropped' },
              resource: resourceParam,
              ...clientAuthFields,
            },
            ['grant_type'],
          ),
        ),
        responses: {
          '200': answer('Tokens', json(ref('TokenResponse'))),
          '400': oauthError('`invalid_request` (also a body that is not form-encoded, or a repeated parameter), `invalid_grant`, `invalid_scope`, `invalid_target`, `invalid_dpop_proof` (also a replayed proof), `use_dpop_nonce`, `unauthorized_client`, `unsupported_grant_type`'),
          '401': oauthError('`invalid_client` (WWW-Authenticate: Basic when Basic was used)'),
          '429': rateLimited,
        },
      },
    },
    '/oauth/par': {
      post: {
        summary: 'RFC 9126 pushed authorization request: the authorize parameters, answered with a single-use request_uri',
        description: `${clientAuth} The parameters are checked as the authorize endpoint checks them, but errors answer here as JSON. A DPoP proof binds the code to its key (dpop_jkt). The request_uri works once, for this client, for OAUTH_PAR_TTL_SEC. Answers carry Cache-Control: no-store.`,
        security: [{ clientBasic: [] }, {}],
        parameters: [dpopHeader],
        requestBody: form(
          obj(
            {
              response_type: { const: 'code' },
              redirect_uri: { type: 'string', format: 'uri' },
              scope: str,
              state: str,
              nonce: str,
              code_challenge: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
              code_challenge_method: { const: 'S256' },
              prompt: { enum: ['none', 'login', 'consent'] },
              max_age: { type: 'integer', minimum: 0 },
              acr_values: str,
              dpop_jkt: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
              resource: resourceParam,
              ...clientAuthFields,
            },
            ['response_type'],
          ),
        ),
        responses: {
          '201': answer('Pushed', json(obj({ request_uri: { type: 'string', pattern: '^urn:ietf:params:oauth:request_uri:' }, expires_in: int }, ['request_uri', 'expires_in']))),
          '400': oauthError('`invalid_request` (also an unregistered redirect_uri, a `request_uri` in the body, or a body that is not form-encoded), `invalid_scope`, `invalid_target`, `unauthorized_client`, `unsupported_response_type`, `request_not_supported`, `invalid_dpop_proof`, `use_dpop_nonce`'),
          '401': oauthError('`invalid_client`'),
          '429': rateLimited,
        },
      },
    },
    '/oauth/revoke': {
      post: {
        summary: 'RFC 7009 revocation: only the caller\'s own tokens; a refresh token ends its whole family',
        description: clientAuth,
        security: [{ clientBasic: [] }, {}],
        requestBody: form(obj({ token: str, token_type_hint: { enum: ['access_token', 'refresh_token'] }, ...clientAuthFields }, ['token'])),
        responses: {
          '200': answer('Always, for an authenticated client (empty body)'),
          '400': oauthError('`invalid_request`: no token'),
          '401': oauthError('`invalid_client`'),
          '429': rateLimited,
        },
      },
    },
    '/oauth/introspect': {
      post: {
        summary: 'RFC 7662 introspection for confidential clients (the token\'s own client or a first-party one)',
        description: `${clientAuth} Refresh tokens are reported inactive.`,
        security: [{ clientBasic: [] }, {}],
        requestBody: form(obj({ token: str, token_type_hint: str, ...clientAuthFields }, ['token'])),
        responses: {
          '200': answer(
            'The token\'s state',
            json(obj({ active: bool, scope: str, client_id: str, sub: str, aud: { oneOf: [str, { type: 'array', items: str }] }, iss: str, exp: int, iat: int, jti: str, token_type: { const: 'Bearer' }, acr: str }, ['active'])),
          ),
          '400': oauthError('`invalid_request`: no token'),
          '401': oauthError('`invalid_client`, or a public client'),
          '429': rateLimited,
        },
      },
    },
    '/oauth/userinfo': { get: userinfo('OIDC userinfo'), post: userinfo('OIDC userinfo (POST form)') },
    '/oauth/register': {
      post: {
        summary: 'RFC 7591 dynamic registration of a public client (for clients that cannot use a Client ID Metadata Document)',
        description:
          'Needs `Authorization: Bearer <initial access token>` (IAM_REGISTRATION_INITIAL_ACCESS_TOKENS); 404 while none is configured. Registers a public client only: `token_endpoint_auth_method` none, grants authorization_code (+ refresh_token), PKCE S256 required at authorize, consent asked on first use. Redirect URIs: https, or http on a loopback address (RFC 8252). Scopes are limited to IAM_UNREGISTERED_CLIENT_SCOPES. Unknown metadata is ignored. Cache-Control: no-store.',
        security: [{ bearer: [] }],
        requestBody: jsonBody(ref('ClientRegistration')),
        responses: {
          '201': answer('The client is registered (no secret is ever issued)', json(ref('ClientInformation'))),
          '400': oauthError('`invalid_redirect_uri` or `invalid_client_metadata` (a confidential method, a secret or keys, a grant other than authorization_code/refresh_token, a body that is not a JSON object)'),
          '401': oauthError('`invalid_token`: no initial access token (WWW-Authenticate: Bearer) or a wrong one (Bearer error="invalid_token")'),
          '404': oauthError('`not_found`: dynamic registration is off'),
          '429': rateLimited,
        },
      },
    },
    '/oauth/client-secret': {
      post: {
        summary: 'Self-fetch: a client picks up its automatically rotated secret exactly once',
        description: 'HTTP Basic with the current (or in-grace previous) secret, no body. 404 while IAM_OAUTH_CLIENT_SELFFETCH is off. Cache-Control: no-store.',
        security: [{ clientBasic: [] }],
        responses: {
          '200': answer('`{rotated: false}`, or the new secret once', json(obj({ rotated: bool, client_id: str, client_secret: str, grace_until: dateTime }, ['rotated']))),
          '401': oauthError('`invalid_client`'),
          '404': oauthError('Self-fetch is switched off'),
          '429': rateLimited,
        },
      },
    },

    '/api/iam/v1/applications/{app}/manifest': {
      put: {
        summary: 'Applies the application manifest: creates or updates the application and its client',
        description: 'Scope `iam:clients.manage`. The client id is `cli_<app>`; a re-apply keeps the existing secret.',
        security: [{ bearer: ['iam:clients.manage'] }],
        parameters: [appParam, idempotencyKey],
        requestBody: jsonBody(ref('ApplicationManifest')),
        responses: {
          '200': answer('Updated', json(obj({ data: ref('ManifestResult') }, ['data']))),
          '201': answer('Created; `client_secret` only on the first apply of a confidential client', json(obj({ data: ref('ManifestResult') }, ['data']))),
          '409': problem('The same Idempotency-Key is still running'),
          '422': problem('Invalid manifest, no Idempotency-Key, or the key reused with another request'),
          ...managementErrors,
        },
      },
    },
    '/api/iam/v1/applications/{app}/rotate-secret': {
      post: {
        summary: 'Rotates the client secret; the previous one keeps validating until grace_until',
        description: 'Scope `iam:clients.manage`. The new secret is returned once.',
        security: [{ bearer: ['iam:clients.manage'] }],
        parameters: [appParam, idempotencyKey],
        responses: {
          '200': answer('The new secret', json(obj({ data: obj({ client_id: str, client_secret: str, grace_until: dateTime }) }, ['data']))),
          '409': problem('Revoked client, previous secret still in grace, or the same Idempotency-Key still running'),
          '422': problem('Public or private_key_jwt client, or no Idempotency-Key'),
          ...managementErrors,
        },
      },
    },
    '/api/iam/v1/applications/{app}/revoke-client': {
      post: {
        summary: 'Revokes the client: its authentication ends at once',
        description: 'Scope `iam:clients.manage`.',
        security: [{ bearer: ['iam:clients.manage'] }],
        parameters: [appParam, idempotencyKey],
        responses: {
          '200': answer('Revoked', json(obj({ data: obj({ client_id: str, revoked: { const: true }, revoked_at: dateTime }) }, ['data']))),
          '409': problem('Already revoked, or the same Idempotency-Key still running'),
          '422': problem('No Idempotency-Key'),
          ...managementErrors,
        },
      },
    },
    '/api/iam/v1/applications/{app}/client': {
      get: {
        summary: 'Credential status of the application\'s client',
        description: 'Scope `iam:applications.read`.',
        security: [{ bearer: ['iam:applications.read'] }],
        parameters: [appParam],
        responses: { '200': answer('The status', json(obj({ data: ref('ClientStatus') }, ['data']))), ...managementErrors },
      },
    },
    '/api/iam/openapi.json': {
      get: { summary: 'This document', security: [], responses: { '200': answer('OpenAPI 3.1 document', json({ type: 'object' })) } },
    },

    '/login': {
      get: { summary: 'Sign-in page: email and password, passkey, social login when set up', security: [], parameters: [returnTo], responses: { '200': page('The form') } },
      post: {
        summary: 'Password sign-in',
        description: 'Argon2id; a wrong password, an unknown email and a disabled account get the same answer. Users with TOTP continue at /login/second-factor.',
        security: [],
        requestBody: form(obj({ csrf, return_to: str, email: { type: 'string', maxLength: 320 }, password: { type: 'string', maxLength: 1024 } }, ['csrf', 'email', 'password'])),
        responses: {
          '303': redirect('Signed in (to return_to), or on to the second factor'),
          '400': page('Email or password missing'),
          '401': page('Email or password is incorrect'),
          '403': page('The form expired (CSRF)'),
          '429': page('Too many failed attempts for this account or IP'),
        },
      },
    },
    '/login/second-factor': {
      get: { summary: 'Second-factor page after the password', security: [], parameters: [returnTo], responses: { '200': page('The form'), '401': page('The sign-in is no longer pending') } },
      post: { ...codePage('Checks the TOTP or recovery code and signs in (aal2)'), security: [] },
    },
    '/login/step-up': {
      get: {
        summary: 'A signed-in session proves a second factor (TOTP or passkey)',
        security: [{ session: [] }],
        parameters: [returnTo],
        responses: { '200': page('The form, or the sign-in page without a session'), '403': page('The user has no second factor to prove') },
      },
      post: { ...codePage('Checks the code and raises the session to aal2'), security: [{ session: [] }] },
    },
    '/login/consent': {
      get: {
        summary: 'Consent page for a third-party client',
        security: [{ session: [] }],
        parameters: [{ ...returnTo, description: 'The authorization request (`/oauth/authorize?…`) to consent to' }],
        responses: { '200': page('The scopes to allow, or the sign-in page without a session'), '400': page('The authorization request is not valid') },
      },
      post: {
        summary: 'Allow or deny; a denial goes back to the client as access_denied',
        security: [{ session: [] }],
        requestBody: form(obj({ csrf, return_to: str, decision: { enum: ['allow', 'deny'] } }, ['csrf', 'return_to', 'decision'])),
        responses: { '303': redirect('Back to the authorization request, or to the client with access_denied'), '400': page('The authorization request is not valid'), '403': page('The form expired (CSRF)') },
      },
    },
    '/login/logout': {
      get: { summary: 'Sign-out page', security: [], responses: { '200': page('The form, or "signed out" without a session') } },
      post: { summary: 'Ends the session', security: [], requestBody: form(obj({ csrf }, ['csrf'])), responses: { '200': page('Signed out'), '403': page('The form expired (CSRF)') } },
    },
    '/login/account': {
      get: {
        summary: 'Account page: authenticator app, passkeys, sign out',
        security: [{ session: [] }],
        parameters: [query('added', { const: 'passkey' }, 'Confirms a passkey was added'), query('done', { enum: ['totp-off', 'passkey-removed'] }, 'Confirms a change')],
        responses: { '200': page('The account'), '303': redirect('To sign in without a session') },
      },
    },
    '/login/account/totp': {
      get: { summary: 'TOTP enrolment page: QR code and key', security: [{ session: [] }], responses: { '200': page('The enrolment'), '303': redirect('To sign in, or to the account when no enrolment is started') } },
    },
    '/login/account/totp/start': { post: accountChange('Starts TOTP enrolment') },
    '/login/account/totp/confirm': {
      post: {
        ...accountChange('Turns TOTP on with a first code; shows 10 recovery codes once', { code: { type: 'string', maxLength: 100 } }),
        responses: { '200': page('The recovery codes'), '303': redirect('To sign in or step up first'), '400': page('That code is not valid'), '403': page('The form expired (CSRF)') },
      },
    },
    '/login/account/totp/disable': { post: accountChange('Turns TOTP off') },
    '/login/account/passkeys/delete': { post: accountChange('Removes a passkey', { credential_id: { type: 'string', maxLength: 1024 } }) },
    '/login/account/passkeys/options': {
      post: {
        summary: 'WebAuthn registration options (called by the page\'s script)',
        security: [{ session: [] }],
        parameters: [{ name: 'x-csrf-token', in: 'header', required: true, schema: str }],
        responses: { '200': answer('PublicKeyCredentialCreationOptionsJSON', json({ type: 'object' })), '401': passkeyRefused, '403': passkeyRefused },
      },
    },
    '/login/account/passkeys/verify': {
      post: {
        summary: 'Verifies the registration response and stores the passkey',
        security: [{ session: [] }],
        parameters: [{ name: 'x-csrf-token', in: 'header', required: true, schema: str }],
        requestBody: jsonBody(obj({ credential: { type: 'object', description: 'RegistrationResponseJSON' }, name: { type: 'string', maxLength: 100 } }, ['credential'])),
        responses: { '200': answer('Stored', json(obj({ redirect: str }, ['redirect']))), '400': passkeyRefused, '401': passkeyRefused, '403': passkeyRefused },
      },
    },
    '/login/passkey/options': {
      post: {
        summary: 'WebAuthn authentication options for passkey sign-in or step-up',
        security: [],
        parameters: [{ name: 'x-csrf-token', in: 'header', required: true, schema: str }],
        requestBody: jsonBody(obj({ step_up: bool }), false),
        responses: { '200': answer('PublicKeyCredentialRequestOptionsJSON', json({ type: 'object' })), '401': passkeyRefused, '403': passkeyRefused },
      },
    },
    '/login/passkey/verify': {
      post: {
        summary: 'Verifies the assertion and signs in (aal2)',
        security: [],
        parameters: [{ name: 'x-csrf-token', in: 'header', required: true, schema: str }],
        requestBody: jsonBody(obj({ credential: { type: 'object', description: 'AuthenticationResponseJSON' }, return_to: str }, ['credential'])),
        responses: { '200': answer('Signed in', json(obj({ redirect: str }, ['redirect']))), '400': passkeyRefused, '401': passkeyRefused, '403': passkeyRefused },
      },
    },
    '/login/social/start': {
      get: {
        summary: 'Starts sign-in at the upstream OpenID provider',
        security: [],
        parameters: [returnTo],
        responses: { '302': redirect('To the provider'), '404': page('Social login is not set up'), '502': page('The provider cannot be reached') },
      },
    },
    '/login/social/callback': {
      get: {
        summary: 'Return from the upstream provider',
        security: [],
        parameters: [query('state', str), query('code', str), query('error', str)],
        responses: { '302': redirect('Signed in: on to return_to'), '400': page('Sign-in expired (state)'), '401': page('Cancelled at the provider'), '403': page('Refused: unverified email or provider unreachable') },
      },
    },
    '/login/assets/login.css': {
      get: { summary: 'The sign-in pages\' stylesheet', security: [], responses: { '200': answer('CSS', media('text/css', str)) } },
    },
    '/login/assets/passkey.js': {
      get: { summary: 'The sign-in pages\' passkey script', security: [], responses: { '200': answer('JavaScript', media('text/javascript', str)) } },
    },
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An iam ES256 access token; permissions travel as scopes' },
      clientBasic: { type: 'http', scheme: 'basic', description: 'client_id and client_secret (client_secret_basic)' },
      session: { type: 'apiKey', in: 'cookie', name: 'iam_session', description: 'Set by signing in at /login' },
    },
    schemas: {
      OAuthError: obj({ error: str, error_description: str }, ['error']),
      Problem: obj({ type: str, title: str, status: int, detail: str, code: str, errors: { type: 'object' } }, ['status']),
      Message: obj({ message: str }, ['message']),
      TokenResponse: obj(
        {
          access_token: { type: 'string', description: 'ES256 JWT (typ at+jwt); `aud` is the requested resource(s), else the default audience; `cnf.jkt` when DPoP-bound' },
          token_type: { enum: ['Bearer', 'DPoP'] },
          expires_in: int,
          scope: str,
          refresh_token: { type: 'string', description: 'iamrt_…; for user grants with offline_access' },
          id_token: { type: 'string', description: 'For user grants with openid' },
        },
        ['access_token', 'token_type', 'expires_in'],
      ),
      Discovery: obj({
        issuer: str,
        authorization_endpoint: str,
        token_endpoint: str,
        userinfo_endpoint: str,
        revocation_endpoint: str,
        introspection_endpoint: str,
        jwks_uri: str,
        scopes_supported: { type: 'array', items: { enum: [...SCOPE_CATALOG] } },
        grant_types_supported: { type: 'array', items: str },
        code_challenge_methods_supported: { type: 'array', items: { const: 'S256' } },
        registration_endpoint: { type: 'string', description: 'Only while dynamic registration is on (IAM_REGISTRATION_INITIAL_ACCESS_TOKENS)' },
        client_id_metadata_document_supported: { type: 'boolean', description: 'Whether a client_id may be the https URL of a Client ID Metadata Document (IAM_CIMD_HOSTS)' },
        acr_values_supported: { type: 'array', items: str },
        prompt_values_supported: { type: 'array', items: { enum: ['none', 'login', 'consent'] } },
        pushed_authorization_request_endpoint: str,
        require_pushed_authorization_requests: bool,
        dpop_signing_alg_values_supported: { type: 'array', items: str },
        resource_indicators_supported: bool,
        resources_supported: { type: 'array', items: { type: 'string', format: 'uri' }, description: 'The RFC 8707 resource indicators accepted (IAM_RESOURCE_INDICATORS)' },
      }),
      ClientRegistration: obj(
        {
          redirect_uris: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', format: 'uri' } },
          client_name: { type: 'string', minLength: 1, maxLength: 200 },
          token_endpoint_auth_method: { const: 'none' },
          grant_types: { type: 'array', items: { enum: ['authorization_code', 'refresh_token'] }, description: 'Default: authorization_code' },
          response_types: { type: 'array', items: { const: 'code' } },
          scope: { type: 'string', maxLength: 1000, description: 'Space-separated; what IAM_UNREGISTERED_CLIENT_SCOPES does not allow is left out' },
        },
        ['redirect_uris'],
      ),
      ClientInformation: obj(
        {
          client_id: str,
          client_id_issued_at: int,
          client_name: str,
          redirect_uris: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', format: 'uri' } },
          grant_types: { type: 'array', items: str },
          response_types: { type: 'array', items: { const: 'code' } },
          token_endpoint_auth_method: { const: 'none' },
          scope: str,
        },
        ['client_id', 'client_id_issued_at', 'redirect_uris', 'token_endpoint_auth_method'],
      ),
      ApplicationManifest: obj(
        {
          name: { type: 'string', minLength: 1, maxLength: 200 },
          type: { enum: ['service', 'web', 'spa'] },
          scopes: { type: 'array', maxItems: 50, items: str },
          auth: obj(
            {
              client_type: { enum: ['confidential', 'public'] },
              token_endpoint_auth_method: { enum: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'] },
              redirect_uris: { type: 'array', maxItems: 20, items: { type: 'string', format: 'uri' } },
              jwks: obj({ keys: { type: 'array', items: { type: 'object' } } }),
              auto_rotate: bool,
              rotate_interval_days: { type: 'integer', minimum: 1, maximum: 3650 },
            },
            ['client_type'],
          ),
        },
        ['name', 'type', 'scopes', 'auth'],
      ),
      ManifestResult: obj({ application_key: str, client_id: str, created: bool, client_secret: str }),
      ClientStatus: obj({
        secret_status: { enum: ['ok', 'expiring', 'expired', 'revoked', 'public'] },
        token_endpoint_auth_method: str,
        uses_private_key_jwt: bool,
        is_confidential: bool,
        secret_expires_at: { oneOf: [dateTime, { type: 'null' }], description: 'Only when IAM_OAUTH_CLIENT_SECRET_TTL is set' },
        secret_rotated_at: { oneOf: [dateTime, { type: 'null' }] },
        grace_active: bool,
        grace_until: { oneOf: [dateTime, { type: 'null' }] },
        revoked_at: { oneOf: [dateTime, { type: 'null' }] },
        auto_rotate: bool,
        rotate_interval_days: { oneOf: [int, { type: 'null' }] },
      }),
    },
  },
};
