import { applyDecorators, Type } from '@nestjs/common';
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
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
const ApiInvalidQuery = (name: EndpointName) =>
  ApiEnvelopeError(422, 'A query parameter is malformed; data.errors names each one', name);

/** A GET that takes validated query parameters: the query, the answer in its envelope, the 422. */
export const ApiQueried = (name: EndpointName, query: Type, data: object) =>
  applyDecorators(ApiQuery({ type: query }), ApiEnvelope(name, data), ApiInvalidQuery(name));

/** The schema builders the `data` schemas below share. */
const objectOf = (properties: Record<string, object>) => ({ type: 'object', properties });
const arrayOf = (items: object) => ({ type: 'array', items });
/** `schema` or null, with an optional description. */
const nullable = (schema: object, description?: string) => ({
  oneOf: [schema, { type: 'null' }],
  ...(description ? { description } : {}),
});
const str = { type: 'string' };
const strings = arrayOf(str);
const int = { type: 'integer' };
const count = { type: 'integer', minimum: 0 };
const bool = { type: 'boolean' };
const dateTime = { type: 'string', format: 'date-time' };
const stringOrNull = nullable(str);

/** A keyset page: the rows under `key`, newest first; `next_cursor` asks for the next page. */
const keysetPageOf = (key: string, item: object) => ({
  type: 'object',
  required: [key, 'next_cursor', 'limit'],
  properties: { [key]: arrayOf(item), next_cursor: nullable(int), limit: int },
});

/** A screened prompt as the audit list shows it; the detail adds the full prompt and the span. */
const auditListEntry = objectOf({
  id: int,
  blocked: bool,
  rule_id: stringOrNull,
  ruleset_version: str,
  prompt_preview: { type: 'string', description: 'At most 160 code points, then …' },
  prompt_length: { type: 'integer', description: 'Code points of the stored prompt' },
  errored: bool,
  occurred_at: dateTime,
  principal_id: nullable(
    str,
    'v1.x addition: whose attempt it was, where the host knew it (a screened document is `document:<id>`, a tool result `tool:<name>`)',
  ),
  tenant_id: nullable(
    str,
    'v1.x addition: the tenant of the attempt, where the host knew it (kb-api does); null otherwise',
  ),
});

export const overviewData = objectOf({
  controls: arrayOf(
    objectOf({
      key: { enum: ['tool_firewall', 'input_screen', 'output_handler', 'hitl'] },
      label: str,
      enabled: bool,
      mode: { enum: ['enforce', 'monitor', 'off'] },
      posture: { enum: ['Engaged', 'Observing', 'Disabled'] },
      spark: {
        type: 'array',
        items: count,
        minItems: 12,
        maxItems: 12,
        description: 'Attempts per UTC hour; index 11 is the current hour',
      },
    }),
  ),
  counts_24h: objectOf({ attempts: count, blocked: count, allowed: count, observed: count }),
  totals: objectOf({
    attempts_24h: count,
    blocked_24h: count,
    observed_24h: count,
    pending_approvals: count,
  }),
  ruleset_version: str,
  generated_at: dateTime,
});

export const auditTrendData = objectOf({
  from: str,
  to: str,
  points: arrayOf(
    objectOf({
      date: { type: 'string', format: 'date' },
      total: count,
      blocked: count,
      allowed: count,
      observed: count,
    }),
  ),
});

export const auditDetailData = objectOf({
  entry: {
    allOf: [
      auditListEntry,
      objectOf({
        prompt: str,
        errored_rule_ids: strings,
        matched_span: nullable({
          type: 'array',
          items: count,
          minItems: 2,
          maxItems: 2,
          description: '[start, end) UTF-8 byte offsets into prompt',
        }),
      }),
    ],
  },
});

export const firewallData = keysetPageOf(
  'entries',
  objectOf({
    id: int,
    tool: { type: 'string', description: "The tool's description (at most 200 characters)" },
    tool_name: str,
    principal_id: stringOrNull,
    violations: {
      type: 'object',
      additionalProperties: str,
      description: 'At most 50 argument → reason entries',
    },
    violation_count: count,
    enforced: bool,
    occurred_at: dateTime,
  }),
);

export const outputStatsData = objectOf({
  from: str,
  to: str,
  counts: objectOf({
    html_stripped: count,
    markdown_sanitized: count,
    structured_validation_failure: count,
    pii_redaction: count,
    pii: objectOf({ by_detector: { type: 'object', additionalProperties: count } }),
  }),
  total: count,
});

export const approvalListData = objectOf({
  pending: arrayOf(
    objectOf({
      approval_id: str,
      run_id: str,
      step_name: str,
      status: str,
      expires_at: nullable(dateTime),
      created_at: dateTime,
      tool: { type: 'string', description: 'Empty when no sidecar row exists' },
      arguments: {
        type: 'object',
        description: 'As rewritten by the tool firewall; {} when no sidecar row exists',
      },
      requested_ago: str,
      expires_in: stringOrNull,
      tenant_id: nullable(
        str,
        'v1.x addition: the tenant of the parked call, where the host knew it (kb-api does)',
      ),
      principal_id: nullable(
        str,
        'v1.x addition: the caller the call was parked for, as the tool firewall saw it',
      ),
    }),
  ),
  hitl_available: bool,
});

export const settingsData = objectOf({ settings: { type: 'object' } });

export const settingsUpdatedData = objectOf({
  settings: { type: 'object' },
  changed: strings,
  dropped: strings,
});

export const settingsChangesData = keysetPageOf(
  'changes',
  objectOf({
    id: int,
    actor_id: stringOrNull,
    key: str,
    old_value: {},
    new_value: {},
    occurred_at: dateTime,
  }),
);

export const tryScreenData = objectOf({
  blocked: { type: 'boolean', description: 'A rule or the classifier matched (whatever the mode)' },
  rule_id: stringOrNull,
  refusal_message: stringOrNull,
  ruleset_version: str,
  classifier_score: nullable(
    { type: 'number', minimum: 0, maximum: 1 },
    'v1.x addition: the classifier score when it ran (no rule matched first and input_screen.classifier_enabled)',
  ),
});

export const trySanitizeData = objectOf({ sanitized: str });

export const auditListData = keysetPageOf('entries', auditListEntry);

export const decisionData = objectOf({
  decision: { enum: ['approved', 'rejected', 'failed', 'unavailable'] },
  executed: { type: 'boolean', description: 'The call ran in this process' },
  dispatched: {
    type: 'boolean',
    description: 'The call was handed to the host that owns the tool',
  },
  error: str,
});
