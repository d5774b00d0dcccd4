import { CHAT_PATHS, CHAT_SCHEMAS } from './chat/chat.openapi';
import { DOCUMENT_PATHS, DOCUMENT_SCHEMAS } from './documents/documents.openapi';
import { ADMIN_INSIGHT_PATHS, ADMIN_INSIGHT_SCHEMAS } from './admin-insight/admin-insight.openapi';
import { ADMIN_KNOWLEDGE_PATHS, ADMIN_KNOWLEDGE_SCHEMAS } from './admin-knowledge/admin-knowledge.openapi';
import { ADMIN_OPERATIONS_PATHS, ADMIN_OPERATIONS_SCHEMAS } from './admin-operations/admin-operations.openapi';
import { MCP_PATHS, MCP_SCHEMAS } from './mcp/mcp.openapi';
import { WIDGET_PATHS, WIDGET_SCHEMAS } from './widget/widget.openapi';
import { MEMBERSHIP_ROLES, MEMBERSHIP_SCOPES } from './admin/memberships/memberships.repository';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from './admin/pagination';
import { PERMISSIONS, ROLES } from './identity/rbac';
import { NOTIFICATION_PATHS, NOTIFICATION_SCHEMAS } from './notifications/notifications.openapi';
import { PROMOTION_PATHS, PROMOTION_SCHEMAS } from './promotion/promotion.openapi';
import { SYSTEM_ADMIN_PATHS, TENANT_ADMIN_BODY } from './system-admin/system-admin.openapi';
import { answer, body, bool, data, dateTime, nullable, page, pathId, ref, str } from './openapi-parts';

/** OpenAPI 3.1 description of every kb-api route (chat, documents, ingest, conversations, presets, preferences, accounts, admin, widget, MCP, promotion, notifications); served at /api/kb/openapi.json and committed as docs/api/kb-api.openapi.json. */
const id = { type: 'integer', minimum: 1 };

const e401 = answer(
  'Guest: no session cookie or bearer token `{message: "Unauthenticated."}`',
  ref('Message'),
);
const e403 = answer(
  'The caller lacks the role, capability or permission `{message}`; CSRF failure `{error: "csrf_token_mismatch"}`; foreign tenant `{error: "tenant_forbidden"}`; suspended tenant `{error: "tenant_suspended"}`',
  ref('Error'),
);
const e404 = answer(
  'Missing, or another tenant\'s row `{error: "not_found", message}`',
  ref('Error'),
);
const e422 = answer(
  'Validation failure `{message, errors: {field: [messages]}}`',
  ref('ValidationError'),
);
const guarded = { '401': e401, '403': e403 };
const userParam = pathId('user', 'User id (of the active tenant)');
const membershipParam = pathId('id', 'Membership id (of the active tenant)');
const tenantHeader = {
  name: 'X-Tenant-Id',
  in: 'header',
  required: false,
  description:
    "The active tenant; default: the caller's home tenant. A malformed id answers 400 `invalid_tenant_id`.",
  schema: { type: 'string', pattern: '^[a-z0-9_-]{1,50}$' },
};
const pageParams = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'per_page',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE },
  },
];
const searchParam = (what: string) => ({
  name: 'search',
  in: 'query',
  description: `Case-insensitive substring of ${what} (% and _ match themselves)`,
  schema: { type: 'string', maxLength: 255 },
});
const G1 = 'Gate G1 (`role:admin|super-admin`) in the active tenant.';
const escalation =
  "403 `role_escalation_forbidden` when the target outranks the caller, a role above the caller's rank (or super-admin, unless the caller is one) is granted or removed, or the caller adds roles to themselves.";

const tenantSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', pattern: '^[a-z0-9_-]{1,50}$' },
    name: str,
    status: { enum: ['active', 'suspended'] },
    users_count: { type: 'integer', minimum: 0 },
    created_at: dateTime,
    updated_at: dateTime,
  },
};
const tenantParam = {
  name: 'tenant',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[a-z0-9_-]{1,50}$' },
};
const platformOnly = {
  '401': e401,
  '403': answer(
    'The caller does not hold the global platform.admin permission (a tenant super-admin does not) `{message}`',
    ref('Message'),
  ),
};

export const KB_OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'Knowledge-base API',
    version: '1.0.0',
    description:
      'Grounded chat with citations, document search, preview and links, batch ingestion and deletion, conversations, chat-filter presets and chat preferences; authentication, the tenant admin surfaces (users, roles, permissions and project memberships; metrics, the KB tree, documents, collections, tags, synonyms, analyses, settings, content gaps and auto-wiki; logs, insights, compliance reports and the PII strategy; maintenance commands, connectors, tabular reviews and workflows; widget keys and sessions; MCP tokens, servers and audit), the system-admin tenant control, the human-gated promotion pipeline, notifications, the public widget API and the MCP server. ' +
      'Callers authenticate with the session cookie set by login (unsafe methods echo the XSRF-TOKEN cookie in X-XSRF-TOKEN) or a bearer personal access token. ' +
      "Every tenant-scoped route acts in the active tenant (X-Tenant-Id, else the caller's home tenant); another tenant's ids answer 404.",
  },
  servers: [{ url: '/' }],
  security: [{ session: [] }, { bearer: [] }],
  paths: {
    '/api/auth/login': {
      post: {
        summary:
          'Session login; sets the httpOnly kb_session cookie and the readable XSRF-TOKEN cookie',
        security: [],
        requestBody: body(ref('Credentials')),
        responses: {
          '200': answer('Signed in', {
            type: 'object',
            properties: {
              user: ref('PublicUser'),
              abilities: { type: 'array', items: str, maxItems: 0 },
            },
          }),
          '422': answer(
            'Wrong or unknown credentials, inactive account, or `errors.code: ["two_factor_required"]`',
            ref('ValidationError'),
          ),
          '429': answer(
            'Too many failures for this email and IP (validation shape, `errors.email`, Retry-After)',
            ref('ValidationError'),
          ),
        },
      },
    },
    '/api/auth/logout': {
      post: {
        summary: 'Ends the session and clears its cookies',
        responses: { '204': answer('Signed out'), ...guarded },
      },
    },
    '/api/auth/me': {
      get: {
        summary:
          'The caller, their roles, permissions and projects in the active tenant, and their tenants',
        parameters: [tenantHeader],
        responses: {
          '200': answer('The caller', ref('Me')),
          '401': e401,
          '403': answer('An integration token without a user, or a tenant refusal', ref('Error')),
        },
      },
    },
    '/api/auth/forgot-password': {
      post: {
        summary:
          'Mails a single-use reset link (60 minutes) when the email belongs to an active account; the answer never tells',
        security: [],
        requestBody: body({
          type: 'object',
          required: ['email'],
          properties: { email: { type: 'string', format: 'email', maxLength: 255 } },
        }),
        responses: {
          '204': answer('Accepted'),
          '422': e422,
          '429': answer('throttle:forgot (per IP per minute)', ref('ValidationError')),
        },
      },
    },
    '/api/auth/reset-password': {
      post: {
        summary:
          'Sets a new password with a reset link; ends every session and token of the account',
        security: [],
        requestBody: body({
          type: 'object',
          required: ['token', 'email', 'password', 'password_confirmation'],
          properties: {
            token: { type: 'string', maxLength: 200 },
            email: { type: 'string', format: 'email' },
            password: { type: 'string', minLength: 8, maxLength: 1024 },
            password_confirmation: str,
          },
        }),
        responses: {
          '204': answer('Password changed'),
          '422': answer(
            '`errors.email` (bad, used or expired token) or `errors.password`',
            ref('ValidationError'),
          ),
        },
      },
    },
    '/api/auth/2fa/enable': {
      post: {
        summary: 'Starts TOTP enrolment',
        responses: {
          '201': answer('Secret and recovery codes, shown once', {
            type: 'object',
            properties: {
              secret: str,
              otpauth_url: str,
              recovery_codes: { type: 'array', items: str },
            },
          }),
          '409': answer('Already enabled', ref('Message')),
          ...guarded,
        },
      },
    },
    '/api/auth/2fa/verify': {
      post: {
        summary: 'Confirms enrolment, or checks a code once enabled',
        requestBody: body(ref('SecondFactor')),
        responses: {
          '200': answer('Verified', {
            type: 'object',
            properties: { two_factor_enabled: { const: true } },
          }),
          '409': answer('Enrolment not started', ref('Message')),
          '422': e422,
          ...guarded,
        },
      },
    },
    '/api/auth/2fa/disable': {
      post: {
        summary: 'Turns two-factor authentication off with a current code or a recovery code',
        requestBody: body(ref('SecondFactor')),
        responses: {
          '204': answer('Disabled'),
          '409': answer('Not enabled', ref('Message')),
          '422': e422,
          ...guarded,
        },
      },
    },
    '/api/auth/token': {
      post: {
        summary:
          'Issues a personal access token (abilities kb:read and kb:chat, 30 days) without session or CSRF',
        security: [],
        requestBody: body({
          type: 'object',
          required: ['email', 'password'],
          properties: {
            email: { type: 'string', format: 'email' },
            password: str,
            device_name: { type: 'string', maxLength: 120, default: 'desktop-demo' },
            code: str,
            recovery_code: str,
          },
        }),
        responses: {
          '201': answer('The token, shown once', {
            type: 'object',
            required: ['token', 'token_type', 'user'],
            properties: { token: str, token_type: { const: 'Bearer' }, user: ref('PublicUser') },
          }),
          '422': answer(
            'Wrong or unknown credentials, inactive account, or invalid body',
            ref('ValidationError'),
          ),
          '429': answer('After 5 failed attempts', ref('ValidationError')),
        },
      },
    },
    '/api/auth/token/revoke': {
      post: {
        summary: 'Deletes the calling personal access token (bearer callers only)',
        security: [{ bearer: [] }],
        responses: {
          '204': answer('Revoked'),
          '401': e401,
          '403': answer('Not a personal access token', ref('Message')),
        },
      },
    },

    '/api/admin/users': {
      get: {
        summary: 'Users of the active tenant (home tenant), by id',
        description: G1,
        parameters: [
          tenantHeader,
          ...pageParams,
          searchParam('name or email'),
          { name: 'active', in: 'query', schema: { enum: ['true', 'false', '1', '0'] } },
          { name: 'role', in: 'query', schema: { enum: ROLES } },
        ],
        responses: { '200': answer('A page of users', page(ref('User'))), '422': e422, ...guarded },
      },
      post: {
        summary: 'Creates a user homed in the active tenant with roles there',
        description: `${G1} The email's identity key (trimmed, lower-cased) is unique platform-wide; the password is stored as an argon2id hash. ${escalation}`,
        parameters: [tenantHeader],
        requestBody: body({
          type: 'object',
          required: ['name', 'email', 'password'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 255 },
            email: { type: 'string', format: 'email', maxLength: 255 },
            password: { type: 'string', minLength: 8, maxLength: 1024 },
            roles: { type: 'array', items: { enum: ROLES }, uniqueItems: true, default: [] },
            active: { type: 'boolean', default: true },
          },
        }),
        responses: {
          '201': answer('Created', data(ref('User'))),
          '422': answer(
            'Invalid body, or `errors.email` when the email is taken',
            ref('ValidationError'),
          ),
          ...guarded,
        },
      },
    },
    '/api/admin/users/{user}': {
      get: {
        summary: 'One user of the active tenant',
        description: G1,
        parameters: [tenantHeader, userParam],
        responses: { '200': answer('The user', data(ref('User'))), '404': e404, ...guarded },
      },
      patch: {
        summary: 'Changes name, email, active and the role set in the active tenant',
        description: `${G1} \`roles\` replaces the set. \`active: false\` deactivates as the deactivate route does. ${escalation} Deactivating yourself answers 403 \`cannot_deactivate_self\`.`,
        parameters: [tenantHeader, userParam],
        requestBody: body({
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 255 },
            email: { type: 'string', format: 'email', maxLength: 255 },
            active: bool,
            roles: { type: 'array', items: { enum: ROLES }, uniqueItems: true },
          },
        }),
        responses: {
          '200': answer('The updated user', data(ref('User'))),
          '404': e404,
          '422': e422,
          ...guarded,
        },
      },
    },
    '/api/admin/users/{user}/deactivate': {
      post: {
        summary: 'Deactivates the account and ends all its sessions and personal access tokens',
        description: `${G1} The account is global: it can no longer sign in anywhere. 403 \`cannot_deactivate_self\` for yourself; 403 \`role_escalation_forbidden\` when the user outranks you.`,
        parameters: [tenantHeader, userParam],
        responses: {
          '200': answer('The deactivated user', data(ref('User'))),
          '404': e404,
          ...guarded,
        },
      },
    },
    '/api/admin/users/{user}/memberships': {
      get: {
        summary: "A user's project memberships in the active tenant",
        description: G1,
        parameters: [tenantHeader, userParam, ...pageParams, searchParam('the project key')],
        responses: {
          '200': answer('A page of memberships', page(ref('Membership'))),
          '404': e404,
          '422': e422,
          ...guarded,
        },
      },
      post: {
        summary: 'Adds the user to a project of the active tenant',
        description: `${G1} 422 \`errors.project_key\` when the project does not exist in the tenant or the user is already a member.`,
        parameters: [tenantHeader, userParam],
        requestBody: body({
          type: 'object',
          required: ['project_key'],
          properties: {
            project_key: { type: 'string', minLength: 1, maxLength: 120 },
            role: { enum: MEMBERSHIP_ROLES, default: 'member' },
            scope: { enum: MEMBERSHIP_SCOPES, default: 'full' },
          },
        }),
        responses: {
          '201': answer('Created', data(ref('Membership'))),
          '404': e404,
          '422': e422,
          ...guarded,
        },
      },
    },
    '/api/admin/memberships/{id}': {
      get: {
        summary: 'One membership of the active tenant',
        description: G1,
        parameters: [tenantHeader, membershipParam],
        responses: {
          '200': answer('The membership', data(ref('Membership'))),
          '404': e404,
          ...guarded,
        },
      },
      patch: {
        summary: "Changes a membership's role or scope",
        description: `${G1} 403 \`role_escalation_forbidden\` when the member outranks you in the tenant.`,
        parameters: [tenantHeader, membershipParam],
        requestBody: body({
          type: 'object',
          properties: { role: { enum: MEMBERSHIP_ROLES }, scope: { enum: MEMBERSHIP_SCOPES } },
        }),
        responses: {
          '200': answer('The updated membership', data(ref('Membership'))),
          '404': e404,
          '422': e422,
          ...guarded,
        },
      },
      delete: {
        summary: 'Removes a membership',
        description: `${G1} 403 \`role_escalation_forbidden\` when the member outranks you in the tenant.`,
        parameters: [tenantHeader, membershipParam],
        responses: { '204': answer('Removed'), '404': e404, ...guarded },
      },
    },
    '/api/admin/roles': {
      get: {
        summary:
          'The seeded roles, most powerful first, with their permissions and holder counts in the active tenant',
        description: G1,
        parameters: [tenantHeader],
        responses: {
          '200': answer('The roles', data({ type: 'array', items: ref('Role') })),
          ...guarded,
        },
      },
    },
    '/api/admin/roles/{role}': {
      patch: {
        summary: "Replaces a role's permission set",
        description:
          `${G1} Also needs roles.manage (seeded to super-admin). The new set holds in the active tenant only; other tenants keep theirs. ` +
          'The super-admin role always holds every permission (422). A platform-level permission (platform.admin, tenant.cross-access) is refused with 422 naming it.',
        parameters: [
          tenantHeader,
          { name: 'role', in: 'path', required: true, schema: { enum: ROLES } },
        ],
        requestBody: body({
          type: 'object',
          required: ['permissions'],
          properties: {
            permissions: { type: 'array', items: { enum: PERMISSIONS }, uniqueItems: true },
          },
        }),
        responses: {
          '200': answer('The role', data(ref('Role'))),
          '404': e404,
          '422': e422,
          ...guarded,
        },
      },
    },
    '/api/admin/permissions': {
      get: {
        summary: 'The tenant-grantable permissions and the roles holding each',
        description: `${G1} Each permission with the roles that carry it in the active tenant.`,
        parameters: [tenantHeader],
        responses: {
          '200': answer(
            'The permissions',
            data({
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  name: { enum: PERMISSIONS },
                  description: str,
                  roles: { type: 'array', items: { enum: ROLES } },
                },
              },
            }),
          ),
          ...guarded,
        },
      },
    },

    '/api/system-admin/tenants': {
      get: {
        summary: 'Every tenant, by id',
        description: 'Global (X-Tenant-Id is not read); needs platform.admin.',
        parameters: [
          ...pageParams,
          searchParam('the id or name'),
          { name: 'status', in: 'query', schema: { enum: ['active', 'suspended'] } },
        ],
        responses: {
          '200': answer('A page of tenants', page(tenantSchema)),
          '422': e422,
          ...platformOnly,
        },
      },
      post: {
        summary: 'Creates a tenant with its `default` project (and, with `admin`, its first admin)',
        description:
          'Global; needs platform.admin. 422 `errors.id` when the id is malformed or taken. With `admin`, the account is created in the same transaction ' +
          '(see `POST /api/system-admin/tenants/{tenant}/admins`) and answered as `admin`; a taken email (422 `errors["admin.email"]`) creates nothing.',
        requestBody: body({
          type: 'object',
          required: ['id', 'name'],
          properties: {
            id: { type: 'string', pattern: '^[a-z0-9_-]{1,50}$' },
            name: { type: 'string', minLength: 1, maxLength: 255 },
            admin: TENANT_ADMIN_BODY,
          },
        }),
        responses: {
          '201': answer('Created', {
            type: 'object',
            required: ['data'],
            properties: { data: tenantSchema, admin: ref('User') },
          }),
          '422': e422,
          ...platformOnly,
        },
      },
    },
    '/api/system-admin/tenants/{tenant}': {
      get: {
        summary: 'One tenant',
        description: 'Global; needs platform.admin.',
        parameters: [tenantParam],
        responses: {
          '200': answer('The tenant', data(tenantSchema)),
          '404': e404,
          ...platformOnly,
        },
      },
    },
    '/api/system-admin/tenants/{tenant}/suspend': {
      post: {
        summary: 'Suspends a tenant: its requests answer 403 tenant_suspended',
        description: 'Global; needs platform.admin.',
        parameters: [tenantParam],
        responses: {
          '200': answer('The tenant', data(tenantSchema)),
          '404': e404,
          ...platformOnly,
        },
      },
    },
    '/api/system-admin/tenants/{tenant}/resume': {
      post: {
        summary: 'Resumes a suspended tenant',
        description: 'Global; needs platform.admin.',
        parameters: [tenantParam],
        responses: {
          '200': answer('The tenant', data(tenantSchema)),
          '404': e404,
          ...platformOnly,
        },
      },
    },
    ...SYSTEM_ADMIN_PATHS,
    '/api/kb/openapi.json': {
      get: {
        summary: 'This document',
        security: [],
        responses: { '200': answer('OpenAPI 3.1 document', { type: 'object' }) },
      },
    },
    ...CHAT_PATHS,
    ...DOCUMENT_PATHS,
    ...PROMOTION_PATHS,
    ...NOTIFICATION_PATHS,
    ...ADMIN_KNOWLEDGE_PATHS,
    ...ADMIN_INSIGHT_PATHS,
    ...ADMIN_OPERATIONS_PATHS,
    ...WIDGET_PATHS,
    ...MCP_PATHS,
  },
  components: {
    securitySchemes: {
      session: {
        type: 'apiKey',
        in: 'cookie',
        name: 'kb_session',
        description:
          'Set by POST /api/auth/login; unsafe methods also need X-XSRF-TOKEN = the XSRF-TOKEN cookie',
      },
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          'A personal access token (kbp_…) from POST /api/auth/token, or an iam access token for integrations',
      },
    },
    schemas: {
      Message: { type: 'object', required: ['message'], properties: { message: str } },
      Error: {
        type: 'object',
        required: ['message'],
        properties: {
          error: { type: 'string', description: 'snake_case code, when the error has one' },
          message: str,
        },
      },
      ValidationError: {
        type: 'object',
        required: ['message', 'errors'],
        properties: {
          message: str,
          errors: { type: 'object', additionalProperties: { type: 'array', items: str } },
        },
      },
      Credentials: {
        type: 'object',
        required: ['email', 'password'],
        properties: {
          email: { type: 'string', format: 'email' },
          password: str,
          remember: bool,
          code: { type: 'string', pattern: '^\\d{6}$' },
          recovery_code: str,
        },
      },
      SecondFactor: {
        type: 'object',
        properties: { code: { type: 'string', pattern: '^\\d{6}$' }, recovery_code: str },
      },
      PublicUser: { type: 'object', properties: { id, name: str, email: str } },
      Me: {
        type: 'object',
        properties: {
          user: {
            type: 'object',
            properties: { id, name: str, email: str, email_verified_at: nullable(dateTime) },
          },
          tenant_id: str,
          roles: { type: 'array', items: { enum: ROLES } },
          permissions: { type: 'array', items: str },
          platform_admin: bool,
          projects: {
            type: 'array',
            items: { type: 'object', properties: { project_key: str, role: str, scope: str } },
          },
          teams: {
            type: 'array',
            items: {
              type: 'object',
              properties: { tenant_id: str, name: str, projects: { type: 'array', items: str } },
            },
          },
          preferences: { type: 'object', properties: { theme: str, density: str, language: str } },
          features: { type: 'object' },
          two_factor_enabled: bool,
          auth: {
            type: 'object',
            properties: {
              kind: { enum: ['session', 'token', 'iam'] },
              abilities: nullable({ type: 'array', items: str }),
            },
          },
        },
      },
      User: {
        type: 'object',
        properties: {
          id,
          tenant_id: { type: 'string', description: 'Home tenant' },
          name: str,
          email: str,
          active: bool,
          roles: {
            type: 'array',
            items: { enum: ROLES },
            description: 'Roles in the active tenant',
          },
          email_verified_at: nullable(dateTime),
          two_factor_enabled: bool,
          created_at: dateTime,
          updated_at: dateTime,
        },
      },
      Membership: {
        type: 'object',
        properties: {
          id,
          user_id: id,
          tenant_id: str,
          project_key: str,
          role: { enum: MEMBERSHIP_ROLES },
          scope: { enum: MEMBERSHIP_SCOPES },
          created_at: dateTime,
          updated_at: dateTime,
        },
      },
      Role: {
        type: 'object',
        properties: {
          name: { enum: ROLES },
          rank: {
            type: 'integer',
            description: 'Higher is more powerful; nobody grants a role above their own',
          },
          description: str,
          permissions: { type: 'array', items: { enum: PERMISSIONS } },
          users_count: { type: 'integer', minimum: 0, description: 'Holders in the active tenant' },
        },
      },
      ...CHAT_SCHEMAS,
      ...DOCUMENT_SCHEMAS,
      ...PROMOTION_SCHEMAS,
      ...NOTIFICATION_SCHEMAS,
      ...ADMIN_KNOWLEDGE_SCHEMAS,
      ...ADMIN_INSIGHT_SCHEMAS,
      ...ADMIN_OPERATIONS_SCHEMAS,
      ...WIDGET_SCHEMAS,
      ...MCP_SCHEMAS,
    },
  },
};
