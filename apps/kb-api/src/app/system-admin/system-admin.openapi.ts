import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../admin/pagination';
import { answer, body, data, dateTime, nullable, page, ref, str } from '../openapi-parts';
import { TENANT_ADMIN_ROLES } from './tenants-admin.dto';

/** OpenAPI fragment of the system-admin routes added for tenant onboarding and the cross-tenant audit. */
const TENANT_ID = { type: 'string', pattern: '^[a-z0-9_-]{1,50}$' };
const platformOnly = {
  '401': answer('Guest `{message: "Unauthenticated."}`', ref('Message')),
  '403': answer(
    'The caller does not hold the global platform.admin permission (a tenant super-admin does not) `{message}`',
    ref('Message'),
  ),
};
const e422 = answer('Validation failure `{message, errors: {field: [messages]}}`', ref('ValidationError'));

/** The body of a tenant admin account, also the optional `admin` of `POST /api/system-admin/tenants`. */
export const TENANT_ADMIN_BODY = {
  type: 'object',
  required: ['name', 'email', 'password'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    email: { type: 'string', format: 'email', maxLength: 255, description: 'Unique platform-wide (case-insensitive)' },
    password: { type: 'string', minLength: 8, maxLength: 1024 },
    role: { enum: TENANT_ADMIN_ROLES, default: 'super-admin' },
  },
};

const auditEntry = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1 },
    actor_user_id: { type: 'integer', minimum: 1 },
    actor_email: str,
    credential: { enum: ['session', 'token'] },
    home_tenant_id: TENANT_ID,
    target_tenant_id: TENANT_ID,
    method: str,
    route: { type: 'string', description: 'The matched route pattern, e.g. `/api/kb/documents/:documentId/preview`' },
    path: { type: 'string', description: 'The concrete path, without the query string' },
    request_id: nullable(str),
    created_at: dateTime,
  },
};

export const SYSTEM_ADMIN_PATHS = {
  '/api/system-admin/tenants/{tenant}/admins': {
    post: {
      summary: "Adds an admin account homed in the tenant (onboarding: the tenant's first admin, or another)",
      description:
        'Global; needs platform.admin. The account gets the role (super-admin unless `role: admin`) in the tenant and owns its `default` project; ' +
        'it signs in with `POST /api/auth/login` or `POST /api/auth/token` like any user. Nothing platform-wide is granted. ' +
        '404 for an unknown tenant; 422 `errors.email` when the email belongs to an account already.',
      parameters: [{ name: 'tenant', in: 'path', required: true, schema: TENANT_ID }],
      requestBody: body(TENANT_ADMIN_BODY),
      responses: {
        '201': answer('The new account', data(ref('User'))),
        '404': answer('Unknown tenant `{error: "not_found", message}`', ref('Error')),
        '422': e422,
        ...platformOnly,
      },
    },
  },
  '/api/system-admin/cross-tenant-audit': {
    get: {
      summary: 'Every request a platform admin made in a tenant other than their home tenant, newest first',
      description:
        'Global; needs platform.admin. A row is written when the request is admitted into the foreign tenant, before the route runs (so refused and failed actions show too).',
      parameters: [
        { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
        { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE } },
        { name: 'actor_user_id', in: 'query', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } },
        { name: 'tenant_id', in: 'query', description: 'The target tenant', schema: TENANT_ID },
      ],
      responses: { '200': answer('A page of entries', page(auditEntry)), '422': e422, ...platformOnly },
    },
  },
};
