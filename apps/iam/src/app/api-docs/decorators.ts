import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiHeader, ApiProduces, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { RETURN_TO_MAX_LENGTH } from '../login/return-to';
import { MessageBody, OAuthErrorBody, ProblemBody } from './error-bodies';

/** The metadata key @nestjs/swagger reads an operation's security requirements from. */
const API_SECURITY = 'swagger/apiSecurity';

/** An answer in RFC 6749's `{error, error_description}` shape. */
export const ApiOAuthError = (status: number, description: string) => ApiResponse({ status, description, type: OAuthErrorBody });

/** The /oauth group's per-IP limit (OAUTH_RATE_LIMIT per minute). */
export const ApiOAuthRateLimited = () =>
  ApiOAuthError(429, 'The per-IP limit of the /oauth group (OAUTH_RATE_LIMIT per minute) is spent; Retry-After says when to try again');

/** A management API error (problem+json). */
export const ApiProblem = (status: number, description: string) =>
  applyDecorators(ApiExtraModels(ProblemBody), ApiResponse({ status, description, content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemBody) } } } }));

/** A sign-in page answer: HTML, its errors too (the message shows next to the field). */
export const ApiHtmlPage = (status: number, description: string) => ApiResponse({ status, description, content: { 'text/html': { schema: { type: 'string' } } } });

/** A static asset of the sign-in pages (CSS, JavaScript). */
export const ApiAsset = (mediaType: string, description: string) =>
  ApiResponse({ status: 200, description, content: { [mediaType]: { schema: { type: 'string' } } } });

/** A redirect (Location says where). */
export const ApiRedirect = (status: number, description: string) => ApiResponse({ status, description });

/** A passkey call refused with `{message}`. */
export const ApiPasskeyRefused = (...statuses: number[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, description: 'Refused `{message}`', type: MessageBody })));

/**
 * Client authentication at an OAuth endpoint: HTTP Basic, or credentials in the form (which the
 * form DTO documents), so an operation needs Basic or nothing at the HTTP level.
 */
export const ApiClientAuthentication = () => SetMetadata(API_SECURITY, [{ clientBasic: [] }, {}]);

/** A cookie session (the sign-in pages' signed-in operations). */
export const ApiSession = () => SetMetadata(API_SECURITY, [{ session: [] }]);

/** An application/x-www-form-urlencoded body of the given DTO. */
export const ApiFormBody = (type: new () => unknown, required = true) =>
  applyDecorators(ApiConsumes('application/x-www-form-urlencoded'), ApiBody({ type, required }));

/** The sign-in pages' `return_to` query parameter. */
export const ApiReturnTo = (
  description = `Where to go after signing in: only \`/oauth/authorize?…\` or \`/login/account\` are followed, anything else goes to the account page; one over ${RETURN_TO_MAX_LENGTH} characters is refused with a 400 page`,
) => ApiQuery({ name: 'return_to', required: false, description, schema: { type: 'string', maxLength: RETURN_TO_MAX_LENGTH } });

/** The page script's CSRF header on the passkey calls. */
export const ApiCsrfHeader = () => ApiHeader({ name: 'x-csrf-token', required: true, schema: { type: 'string' } });

/** Answers HTML (the sign-in pages). */
export const ApiHtml = () => ApiProduces('text/html');

/** How an OAuth endpoint's caller authenticates as a client (the prose of every such operation). */
export const CLIENT_AUTHENTICATION =
  'Client authentication: HTTP Basic (`client_secret_basic`), `client_id` + `client_secret` in the body (`client_secret_post`), `client_assertion` (`private_key_jwt`, ES256) or `client_id` alone for a public client. Failed client authentication is 401 `invalid_client`.';

/** RFC 9449's DPoP header at the token and PAR endpoints. */
export const ApiDpopHeader = () =>
  ApiHeader({
    name: 'DPoP',
    required: false,
    description: "RFC 9449 proof (a `dpop+jwt` signed by the client's key, htm POST, htu this endpoint); with it the access token is bound to the key (`token_type: DPoP`, `cnf.jkt`)",
    schema: { type: 'string' },
  });
