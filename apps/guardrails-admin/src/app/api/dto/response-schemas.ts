import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { EndpointName, SCHEMA_VERSION } from '../envelope';

/**
 * The API's answers as OpenAPI schemas: every answer, errors included, is an envelope
 * `{ schema_version, schema, data }`; these describe `data` per endpoint (the views in views.ts and
 * the guardrails library's result types build the values).
 */
const envelopeOf = (name: EndpointName, data: object): SchemaObject => ({
  type: 'object',
  required: ['schema_version', 'schema', 'data'],
  properties: {
    schema_version: { type: 'string', enum: [SCHEMA_VERSION] },
    schema: { type: 'string', enum: [`${SCHEMA_VERSION}.${name}`] },
    data,
  },
});

/** `data` of an error: `error` names the problem; a validation failure lists messages by field. */
const errorData = {
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string' },
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
  },
};

/** A 2xx answer in the endpoint's envelope. */
export const ApiEnvelope = (name: EndpointName, data: object, status = 200, description = 'OK') =>
  ApiResponse({ status, description, schema: envelopeOf(name, data) });

/** An error answer in the endpoint's envelope (`guardrails.api.v1.error` for the host middleware's). */
export const ApiEnvelopeError = (
  status: number,
  description: string,
  name: EndpointName = 'error',
) => ApiResponse({ status, description, schema: envelopeOf(name, errorData) });

/** 401/403 from the host middleware of api.middleware. */
export const ApiGuarded = () =>
  applyDecorators(
    ApiEnvelopeError(401, 'No or invalid bearer token (host middleware `jwt`)'),
    ApiEnvelopeError(403, 'The token lacks guardrails:admin'),
  );

/** 422 for a malformed query parameter; data.errors names each one. */
export const ApiInvalidQuery = (name: EndpointName) =>
  ApiEnvelopeError(422, 'A query parameter is malformed; data.errors names each one', name);

export const overviewData = {
  type: 'object',
  properties: {
    controls: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          key: { enum: ['tool_firewall', 'input_screen', 'output_handler', 'hitl'] },
          label: { type: 'string' },
          enabled: { type: 'boolean' },
          mode: { enum: ['enforce', 'monitor', 'off'] },
          posture: { enum: ['Engaged', 'Observing', 'Disabled'] },
          spark: {
            type: 'array',
            items: { type: 'integer', minimum: 0 },
            minItems: 12,
            maxItems: 12,
            description: 'Attempts per UTC hour; index 11 is the current hour',
          },
        },
      },
    },
    counts_24h: {
      type: 'object',
      properties: {
        attempts: { type: 'integer', minimum: 0 },
        blocked: { type: 'integer', minimum: 0 },
        allowed: { type: 'integer', minimum: 0 },
        observed: { type: 'integer', minimum: 0 },
      },
    },
    totals: {
      type: 'object',
      properties: {
        attempts_24h: { type: 'integer', minimum: 0 },
        blocked_24h: { type: 'integer', minimum: 0 },
        observed_24h: { type: 'integer', minimum: 0 },
        pending_approvals: { type: 'integer', minimum: 0 },
      },
    },
    ruleset_version: { type: 'string' },
    generated_at: { type: 'string', format: 'date-time' },
  },
};

export const auditTrendData = {
  type: 'object',
  properties: {
    from: { type: 'string' },
    to: { type: 'string' },
    points: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          date: { type: 'string', format: 'date' },
          total: { type: 'integer', minimum: 0 },
          blocked: { type: 'integer', minimum: 0 },
          allowed: { type: 'integer', minimum: 0 },
          observed: { type: 'integer', minimum: 0 },
        },
      },
    },
  },
};

export const auditDetailData = {
  type: 'object',
  properties: {
    entry: {
      allOf: [
        {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            blocked: { type: 'boolean' },
            rule_id: { oneOf: [{ type: 'string' }, { type: 'null' }] },
            ruleset_version: { type: 'string' },
            prompt_preview: { type: 'string', description: 'At most 160 code points, then …' },
            prompt_length: { type: 'integer', description: 'Code points of the stored prompt' },
            errored: { type: 'boolean' },
            occurred_at: { type: 'string', format: 'date-time' },
            principal_id: {
              oneOf: [{ type: 'string' }, { type: 'null' }],
              description:
                'v1.x addition: whose attempt it was, where the host knew it (a screened document is `document:<id>`, a tool result `tool:<name>`)',
            },
            tenant_id: {
              oneOf: [{ type: 'string' }, { type: 'null' }],
              description:
                'v1.x addition: the tenant of the attempt, where the host knew it (kb-api does); null otherwise',
            },
          },
        },
        {
          type: 'object',
          properties: {
            prompt: { type: 'string' },
            errored_rule_ids: { type: 'array', items: { type: 'string' } },
            matched_span: {
              oneOf: [
                {
                  type: 'array',
                  items: { type: 'integer', minimum: 0 },
                  minItems: 2,
                  maxItems: 2,
                  description: '[start, end) UTF-8 byte offsets into prompt',
                },
                { type: 'null' },
              ],
            },
          },
        },
      ],
    },
  },
};

export const firewallData = {
  type: 'object',
  required: ['entries', 'next_cursor', 'limit'],
  properties: {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          tool: { type: 'string', description: "The tool's description (at most 200 characters)" },
          tool_name: { type: 'string' },
          principal_id: { oneOf: [{ type: 'string' }, { type: 'null' }] },
          violations: {
            type: 'object',
            additionalProperties: { type: 'string' },
            description: 'At most 50 argument → reason entries',
          },
          violation_count: { type: 'integer', minimum: 0 },
          enforced: { type: 'boolean' },
          occurred_at: { type: 'string', format: 'date-time' },
        },
      },
    },
    next_cursor: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
    limit: { type: 'integer' },
  },
};

export const outputStatsData = {
  type: 'object',
  properties: {
    from: { type: 'string' },
    to: { type: 'string' },
    counts: {
      type: 'object',
      properties: {
        html_stripped: { type: 'integer', minimum: 0 },
        markdown_sanitized: { type: 'integer', minimum: 0 },
        structured_validation_failure: { type: 'integer', minimum: 0 },
        pii_redaction: { type: 'integer', minimum: 0 },
        pii: {
          type: 'object',
          properties: {
            by_detector: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
          },
        },
      },
    },
    total: { type: 'integer', minimum: 0 },
  },
};

export const approvalListData = {
  type: 'object',
  properties: {
    pending: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          approval_id: { type: 'string' },
          run_id: { type: 'string' },
          step_name: { type: 'string' },
          status: { type: 'string' },
          expires_at: { oneOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
          created_at: { type: 'string', format: 'date-time' },
          tool: { type: 'string', description: 'Empty when no sidecar row exists' },
          arguments: {
            type: 'object',
            description: 'As rewritten by the tool firewall; {} when no sidecar row exists',
          },
          requested_ago: { type: 'string' },
          expires_in: { oneOf: [{ type: 'string' }, { type: 'null' }] },
          tenant_id: {
            oneOf: [{ type: 'string' }, { type: 'null' }],
            description:
              'v1.x addition: the tenant of the parked call, where the host knew it (kb-api does)',
          },
          principal_id: {
            oneOf: [{ type: 'string' }, { type: 'null' }],
            description:
              'v1.x addition: the caller the call was parked for, as the tool firewall saw it',
          },
        },
      },
    },
    hitl_available: { type: 'boolean' },
  },
};

export const settingsData = { type: 'object', properties: { settings: { type: 'object' } } };

export const settingsUpdatedData = {
  type: 'object',
  properties: {
    settings: { type: 'object' },
    changed: { type: 'array', items: { type: 'string' } },
    dropped: { type: 'array', items: { type: 'string' } },
  },
};

export const settingsChangesData = {
  type: 'object',
  required: ['changes', 'next_cursor', 'limit'],
  properties: {
    changes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          actor_id: { oneOf: [{ type: 'string' }, { type: 'null' }] },
          key: { type: 'string' },
          old_value: {},
          new_value: {},
          occurred_at: { type: 'string', format: 'date-time' },
        },
      },
    },
    next_cursor: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
    limit: { type: 'integer' },
  },
};

export const tryScreenData = {
  type: 'object',
  properties: {
    blocked: {
      type: 'boolean',
      description: 'A rule or the classifier matched (whatever the mode)',
    },
    rule_id: { oneOf: [{ type: 'string' }, { type: 'null' }] },
    refusal_message: { oneOf: [{ type: 'string' }, { type: 'null' }] },
    ruleset_version: { type: 'string' },
    classifier_score: {
      oneOf: [{ type: 'number', minimum: 0, maximum: 1 }, { type: 'null' }],
      description:
        'v1.x addition: the classifier score when it ran (no rule matched first and input_screen.classifier_enabled)',
    },
  },
};

export const trySanitizeData = { type: 'object', properties: { sanitized: { type: 'string' } } };

export const auditListData = {
  type: 'object',
  required: ['entries', 'next_cursor', 'limit'],
  properties: {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          blocked: { type: 'boolean' },
          rule_id: { oneOf: [{ type: 'string' }, { type: 'null' }] },
          ruleset_version: { type: 'string' },
          prompt_preview: { type: 'string', description: 'At most 160 code points, then …' },
          prompt_length: { type: 'integer', description: 'Code points of the stored prompt' },
          errored: { type: 'boolean' },
          occurred_at: { type: 'string', format: 'date-time' },
          principal_id: {
            oneOf: [{ type: 'string' }, { type: 'null' }],
            description:
              'v1.x addition: whose attempt it was, where the host knew it (a screened document is `document:<id>`, a tool result `tool:<name>`)',
          },
          tenant_id: {
            oneOf: [{ type: 'string' }, { type: 'null' }],
            description:
              'v1.x addition: the tenant of the attempt, where the host knew it (kb-api does); null otherwise',
          },
        },
      },
    },
    next_cursor: { oneOf: [{ type: 'integer' }, { type: 'null' }] },
    limit: { type: 'integer' },
  },
};

export const decisionData = {
  type: 'object',
  properties: {
    decision: { enum: ['approved', 'rejected', 'failed', 'unavailable'] },
    executed: { type: 'boolean', description: 'The call ran in this process' },
    dispatched: {
      type: 'boolean',
      description: 'The call was handed to the host that owns the tool',
    },
    error: { type: 'string' },
  },
};
