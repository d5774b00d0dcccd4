import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ApiPublic } from '@platform/runtime';
import { MAX_PER_PAGE } from '../admin/pagination';
import { ErrorBody, MessageBody, ValidationErrorBody } from './error-bodies';

/**
 * kb-api's OpenAPI building blocks: the error answers every guarded route shares, the active-tenant
 * header, and the `{data}` / page envelopes, so each controller states its own contract once.
 */

/** 401 for a guest and 403 for a caller the route's gate refuses (role, permission, CSRF, tenant). */
export const ApiGuarded = () =>
  applyDecorators(
    ApiExtraModels(MessageBody, ErrorBody),
    ApiResponse({ status: 401, description: 'Guest: no session cookie or bearer token `{message: "Unauthenticated."}`', type: MessageBody }),
    ApiResponse({
      status: 403,
      description:
        'The caller lacks the role, capability or permission `{message}`; CSRF failure `{error: "csrf_token_mismatch"}`; foreign tenant `{error: "tenant_forbidden"}`; suspended tenant `{error: "tenant_suspended"}`',
      type: ErrorBody,
    }),
  );

/** 404 for a missing row or another tenant's (the two are indistinguishable by design). */
export const ApiNotFound = (what = 'row') =>
  ApiResponse({ status: 404, description: `Missing, or another tenant's ${what} \`{error: "not_found", message}\``, type: ErrorBody });

/** 422 with every message under the field it names. */
export const ApiValidationFailed = (description = 'Validation failure `{message, errors: {field: [messages]}}`') =>
  ApiResponse({ status: 422, description, type: ValidationErrorBody });

/** A route that needs no credentials: no 401/403 and `security: []` in the document. */
export const ApiNoAuth = () => ApiPublic();

/** The active tenant header every tenant-scoped route reads. */
export const ApiTenantHeader = () =>
  ApiHeader({
    name: 'X-Tenant-Id',
    required: false,
    description: "The active tenant; default: the caller's home tenant. A malformed id answers 400 `invalid_tenant_id`.",
    schema: { type: 'string', pattern: '^[a-z0-9_-]{1,50}$' },
  });

/** A `{data: T}` (or `{data: T[]}`) answer. */
export const ApiData = <T extends Type<unknown>>(model: T, options: { status?: number; description?: string; isArray?: boolean } = {}) =>
  applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? '',
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: options.isArray ? { type: 'array', items: { $ref: getSchemaPath(model) } } : { $ref: getSchemaPath(model) } },
      },
    }),
  );

/** A Laravel-style length-aware page of T (`?page=&per_page=`), the admin lists' shape. */
export const ApiPage = <T extends Type<unknown>>(model: T, description = 'A page') =>
  applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status: 200,
      description,
      schema: {
        type: 'object',
        required: ['data', 'current_page', 'per_page', 'total', 'last_page'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          current_page: { type: 'integer', minimum: 1 },
          per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE },
          total: { type: 'integer', minimum: 0 },
          last_page: { type: 'integer', minimum: 1 },
        },
      },
    }),
  );
