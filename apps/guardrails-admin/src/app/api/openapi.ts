/** OpenAPI 3.1 description of the guardrails admin API; served and committed as docs/api/guardrails-admin.openapi.json. */
const envelopeOf = (name: string, data: object) => ({
  type: 'object',
  required: ['schema_version', 'schema', 'data'],
  properties: {
    schema_version: { const: 'guardrails.api.v1' },
    schema: { const: `guardrails.api.v1.${name}` },
    data,
  },
});
const json = (schema: object) => ({ 'application/json': { schema } });
const ok = (name: string, data: object, description = 'OK') => ({ description, content: json(envelopeOf(name, data)) });
const apiError = (description: string, name = 'error') => ({
  description,
  content: json(envelopeOf(name, { $ref: '#/components/schemas/ErrorData' })),
});
const guarded = {
  '401': apiError('No or invalid bearer token (host middleware `jwt`)'),
  '403': apiError('The token lacks guardrails:admin'),
};
const invalidQuery = (name: string) => apiError('A query parameter is malformed; data.errors names each one', name);
const isoDate = { type: 'string', description: 'Strict ISO 8601 date (UTC day; as `to`, the end of that day) or date-time with an offset' };
const listParams = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
  { name: 'cursor', in: 'query', description: 'next_cursor of the previous page (rows with a smaller id)', schema: { type: 'integer', minimum: 1 } },
];
const windowParams = [
  { name: 'from', in: 'query', schema: isoDate },
  { name: 'to', in: 'query', schema: isoDate },
];
const str = { type: 'string' };
const int = { type: 'integer', minimum: 0 };
const nullable = (schema: object) => ({ oneOf: [schema, { type: 'null' }] });
const page = (items: object, key = 'entries') => ({
  type: 'object',
  required: [key, 'next_cursor', 'limit'],
  properties: { [key]: { type: 'array', items }, next_cursor: nullable({ type: 'integer' }), limit: { type: 'integer' } },
});
const auditItem = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    blocked: { type: 'boolean' },
    rule_id: nullable(str),
    ruleset_version: str,
    prompt_preview: { type: 'string', description: 'At most 160 code points, then …' },
    prompt_length: { type: 'integer', description: 'Code points of the stored prompt' },
    errored: { type: 'boolean' },
    occurred_at: { type: 'string', format: 'date-time' },
    principal_id: { ...nullable(str), description: 'v1.x addition: whose attempt it was, where the host knew it (a screened document is `document:<id>`, a tool result `tool:<name>`)' },
    tenant_id: { ...nullable(str), description: 'v1.x addition: the tenant of the attempt, where the host knew it (kb-api does); null otherwise' },
  },
};
const decision = {
  type: 'object',
  properties: {
    decision: { enum: ['approved', 'rejected', 'failed', 'unavailable'] },
    executed: { type: 'boolean', description: 'The call ran in this process' },
    dispatched: { type: 'boolean', description: 'The call was handed to the host that owns the tool' },
    error: str,
  },
};
const actorBody = {
  required: false,
  content: json({ type: 'object', properties: { actor: { type: 'object', description: 'Flat scalar fields describing the approver; principal_id and via are always set by the server' } } }),
};
const tokenParam = { name: 'token', in: 'path', required: true, schema: { type: 'string', pattern: '^[A-Za-z0-9_\\-.]+$' } };

export const GUARDRAILS_OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'Guardrails admin API',
    version: '1.1.0',
    description:
      'Read and configuration API for an admin panel over the guardrails library. Mounted under api.prefix (GUARDRAILS_API_PREFIX, default guardrails/api) only when api.enabled (GUARDRAILS_API_ENABLED) is true; every route passes the host middleware of api.middleware. Every answer, errors included, is an envelope { schema_version, schema, data }.',
  },
  servers: [{ url: '/guardrails/api' }],
  security: [{ bearer: [] }],
  paths: {
    '/overview': {
      get: {
        summary: 'Per-control state, 12-hour spark, 24-hour totals, ruleset version',
        responses: {
          '200': ok('overview', {
            type: 'object',
            properties: {
              controls: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    key: { enum: ['tool_firewall', 'input_screen', 'output_handler', 'hitl'] },
                    label: str,
                    enabled: { type: 'boolean' },
                    mode: { enum: ['enforce', 'monitor', 'off'] },
                    posture: { enum: ['Engaged', 'Observing', 'Disabled'] },
                    spark: { type: 'array', items: int, minItems: 12, maxItems: 12, description: 'Attempts per UTC hour; index 11 is the current hour' },
                  },
                },
              },
              counts_24h: { type: 'object', properties: { attempts: int, blocked: int, allowed: int, observed: int } },
              totals: { type: 'object', properties: { attempts_24h: int, blocked_24h: int, observed_24h: int, pending_approvals: int } },
              ruleset_version: str,
              generated_at: { type: 'string', format: 'date-time' },
            },
          }),
          ...guarded,
        },
      },
    },
    '/audit': {
      get: {
        summary: 'Screened prompts, newest first (keyset pages)',
        parameters: [
          ...listParams,
          { name: 'blocked', in: 'query', schema: { type: 'boolean' } },
          { name: 'rule_id', in: 'query', schema: str },
          { name: 'principal_id', in: 'query', schema: str },
          { name: 'q', in: 'query', description: 'Literal substring of the stored prompt (% and _ match themselves)', schema: str },
          ...windowParams,
        ],
        responses: { '200': ok('audit-list', page(auditItem)), '422': invalidQuery('audit-list'), ...guarded },
      },
    },
    '/audit/trend': {
      get: {
        summary: 'Per-UTC-day counts; total = blocked + allowed, observed ⊆ allowed',
        parameters: windowParams,
        responses: {
          '200': ok('audit-trend', {
            type: 'object',
            properties: {
              from: str,
              to: str,
              points: { type: 'array', items: { type: 'object', properties: { date: { type: 'string', format: 'date' }, total: int, blocked: int, allowed: int, observed: int } } },
            },
          }),
          '422': invalidQuery('audit-trend'),
          ...guarded,
        },
      },
    },
    '/audit/{id}': {
      get: {
        summary: 'One screened prompt in full with the matched span',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: {
          '200': ok('audit-detail', {
            type: 'object',
            properties: {
              entry: {
                allOf: [
                  auditItem,
                  {
                    type: 'object',
                    properties: {
                      prompt: str,
                      errored_rule_ids: { type: 'array', items: str },
                      matched_span: nullable({ type: 'array', items: int, minItems: 2, maxItems: 2, description: '[start, end) UTF-8 byte offsets into prompt' }),
                    },
                  },
                ],
              },
            },
          }),
          '404': apiError('No such entry', 'audit-detail'),
          ...guarded,
        },
      },
    },
    '/firewall': {
      get: {
        summary: 'Tool-firewall rejections, newest first (keyset pages)',
        parameters: [...listParams, { name: 'principal_id', in: 'query', schema: str }, { name: 'q', in: 'query', schema: str }, ...windowParams],
        responses: {
          '200': ok(
            'firewall',
            page({
              type: 'object',
              properties: {
                id: { type: 'integer' },
                tool: { type: 'string', description: "The tool's description (at most 200 characters)" },
                tool_name: str,
                principal_id: nullable(str),
                violations: { type: 'object', additionalProperties: str, description: 'At most 50 argument → reason entries' },
                violation_count: int,
                enforced: { type: 'boolean' },
                occurred_at: { type: 'string', format: 'date-time' },
              },
            }),
          ),
          '422': invalidQuery('firewall'),
          ...guarded,
        },
      },
    },
    '/output/stats': {
      get: {
        summary: 'Output-sanitization counts over a window (default 30 days)',
        parameters: windowParams,
        responses: {
          '200': ok('output-stats', {
            type: 'object',
            properties: {
              from: str,
              to: str,
              counts: {
                type: 'object',
                properties: {
                  html_stripped: int,
                  markdown_sanitized: int,
                  structured_validation_failure: int,
                  pii_redaction: int,
                  pii: { type: 'object', properties: { by_detector: { type: 'object', additionalProperties: int } } },
                },
              },
              total: int,
            },
          }),
          '422': invalidQuery('output-stats'),
          ...guarded,
        },
      },
    },
    '/approvals': {
      get: {
        summary: 'Pending human approvals (newest 50) with the parked tool and its scoped arguments',
        responses: {
          '200': ok('approval-list', {
            type: 'object',
            properties: {
              pending: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    approval_id: str,
                    run_id: str,
                    step_name: str,
                    status: str,
                    expires_at: nullable({ type: 'string', format: 'date-time' }),
                    created_at: { type: 'string', format: 'date-time' },
                    tool: { type: 'string', description: 'Empty when no sidecar row exists' },
                    arguments: { type: 'object', description: 'As rewritten by the tool firewall; {} when no sidecar row exists' },
                    requested_ago: str,
                    expires_in: nullable(str),
                    tenant_id: { ...nullable(str), description: 'v1.x addition: the tenant of the parked call, where the host knew it (kb-api does)' },
                    principal_id: { ...nullable(str), description: 'v1.x addition: the caller the call was parked for, as the tool firewall saw it' },
                  },
                },
              },
              hitl_available: { type: 'boolean' },
            },
          }),
          ...guarded,
        },
      },
    },
    '/approvals/{token}/approve': {
      post: {
        summary: 'Approve: the parked call runs once, in the host that owns the tool',
        parameters: [tokenParam],
        requestBody: actorBody,
        responses: {
          '200': ok('approval-decision', decision),
          '404': apiError('Malformed token', 'approval-decision'),
          '409': apiError('HITL unavailable', 'approval-decision'),
          '422': apiError('Unknown, expired or oppositely decided token', 'approval-decision'),
          ...guarded,
        },
      },
    },
    '/approvals/{token}/reject': {
      post: {
        summary: 'Reject: the parked call is discarded',
        parameters: [tokenParam],
        requestBody: actorBody,
        responses: {
          '200': ok('approval-decision', decision),
          '404': apiError('Malformed token', 'approval-decision'),
          '409': apiError('HITL unavailable', 'approval-decision'),
          '422': apiError('Unknown, expired or oppositely decided token', 'approval-decision'),
          ...guarded,
        },
      },
    },
    '/settings': {
      get: {
        summary: 'Effective value of every allow-listed setting (defaults overlaid with stored overrides), nested by group',
        responses: { '200': ok('settings', { type: 'object', properties: { settings: { type: 'object' } } }), ...guarded },
      },
      put: {
        summary: 'Store overrides: all or nothing; non-overridable keys dropped; one change record per effective change; SettingsChanged published',
        requestBody: {
          required: true,
          content: json({ type: 'object', required: ['settings'], properties: { settings: { type: 'object', description: 'Dotted keys, e.g. {"modes.input_screen": "monitor"}' } } }),
        },
        responses: {
          '200': ok('settings', { type: 'object', properties: { settings: { type: 'object' }, changed: { type: 'array', items: str }, dropped: { type: 'array', items: str } } }),
          '422': apiError('A value is malformed; data.errors is keyed settings.<dotted.key>; nothing stored', 'settings'),
          '503': apiError('The store failed; nothing changed', 'settings'),
          ...guarded,
        },
      },
    },
    '/settings/changes': {
      get: {
        summary: 'Append-only change log, newest first',
        parameters: listParams,
        responses: {
          '200': ok(
            'settings-changes',
            page(
              {
                type: 'object',
                properties: { id: { type: 'integer' }, actor_id: nullable(str), key: str, old_value: {}, new_value: {}, occurred_at: { type: 'string', format: 'date-time' } },
              },
              'changes',
            ),
          ),
          '422': invalidQuery('settings-changes'),
          ...guarded,
        },
      },
    },
    '/try/screen': {
      post: {
        summary: 'Screen a prompt with the live settings; nothing is persisted',
        requestBody: { required: true, content: json({ type: 'object', properties: { prompt: str } }) },
        responses: {
          '200': ok('try-screen', {
            type: 'object',
            properties: {
              blocked: { type: 'boolean', description: 'A rule or the classifier matched (whatever the mode)' },
              rule_id: nullable(str),
              refusal_message: nullable(str),
              ruleset_version: str,
              classifier_score: { ...nullable({ type: 'number', minimum: 0, maximum: 1 }), description: 'v1.x addition: the classifier score when it ran (no rule matched first and input_screen.classifier_enabled)' },
            },
          }),
          '422': apiError('prompt is not a string', 'try-screen'),
          ...guarded,
        },
      },
    },
    '/try/sanitize': {
      post: {
        summary: 'Run a text through HTML handling, markdown defanging and PII redaction; nothing is persisted',
        requestBody: { required: true, content: json({ type: 'object', properties: { text: str } }) },
        responses: { '200': ok('try-sanitize', { type: 'object', properties: { sanitized: str } }), '422': apiError('text is not a string', 'try-sanitize'), ...guarded },
      },
    },
    '/openapi.json': {
      get: { summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } } },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An iam access token with guardrails:admin' } },
    schemas: {
      ErrorData: {
        type: 'object',
        required: ['error'],
        properties: { error: str, message: str, errors: { type: 'object', additionalProperties: { type: 'array', items: str } } },
      },
    },
  },
};
