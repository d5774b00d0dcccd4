import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiParam, ApiResponse } from '@nestjs/swagger';
import { ApiNoAuth, ErrorBody, ValidationErrorBody } from '../api-docs';

/** The public widget API's credentials in the document: no user auth, the key (or a token minted from it) instead. */
export const ApiWidgetCredentials = () =>
  applyDecorators(
    ApiNoAuth(),
    ApiHeader({
      name: 'X-Widget-Key',
      required: false,
      description: 'Public key pk_… (browser and proxy modes; not needed with a wt_/wu_ token)',
      schema: { type: 'string' },
    }),
    ApiHeader({
      name: 'Authorization',
      required: false,
      description: '`Bearer sk_…` (proxy mode), `Bearer wt_…` (single-use session token) or `Bearer wu_…` (user token)',
      schema: { type: 'string' },
    }),
    ApiHeader({ name: 'Origin', required: false, description: "Browser mode: must be one of the key's allowed_origins", schema: { type: 'string' } }),
  );

/** An `{error, message}` answer naming the codes it may carry. */
export const ApiWidgetError = (status: number, codes: string) =>
  ApiResponse({ status, description: `\`{error, message}\` with error ${codes}`, type: ErrorBody });

/** The refusals every widget-key route may answer. */
export const ApiWidgetRefusals = (options: { forbidden?: string } = {}) =>
  applyDecorators(
    ApiWidgetError(401, 'widget_key_missing, widget_key_invalid or session_token_invalid'),
    ApiWidgetError(403, options.forbidden ?? 'widget_key_inactive or origin_not_allowed'),
    ApiWidgetRateLimited(),
  );

export const ApiWidgetRateLimited = (description = "`{error: \"rate_limited\"}` (120/min per IP, or the key's rate_limit per key and IP) with Retry-After") =>
  ApiResponse({ status: 429, description, headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds' } }, type: ErrorBody });

export const ApiWidgetValidationFailed = () =>
  ApiResponse({ status: 422, description: 'Validation failure `{message, errors}` naming each field', type: ValidationErrorBody });

/** The 404 a foreign or malformed widget session id answers. */
export const ApiWidgetSessionNotFound = () =>
  ApiResponse({ status: 404, description: "Another key's or identity's session, or not a session id `{error: \"not_found\"}`", type: ErrorBody });

/** `{id}` of a widget session, and the 404 a foreign or malformed one answers. */
export const ApiWidgetSession = () =>
  applyDecorators(ApiParam({ name: 'id', description: 'Widget session id', schema: { type: 'string', format: 'uuid' } }), ApiWidgetSessionNotFound());
