import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../admin/pagination';
import { PERMISSIONS } from '../identity/rbac';
import { REPORT_KINDS } from './compliance/compliance.dto';
import { RETENTION_DEFAULTS } from './compliance/report-builders';
import { INSIGHT_DEFAULT_DAYS } from './insights/insights.service';
import { KB_QUEUE_NAMES } from './logs/failed-jobs.service';
import {
  APPLICATION_LEVELS,
  MUTATION_METHODS,
  OUTCOMES,
  PROMOTION_AUDIT_ACTIONS,
} from './logs/logs.dto';
import { PII_ACTIONS, PII_DETECTORS } from './pii/pii-policy';
import { answer, data, dateTime, int, json, nullable, page, pathId, query, ref, str } from '../openapi-parts';

/** OpenAPI paths and schemas of KbAdminInsightModule, merged into the kb-api document by ../openapi.ts. */
const counts = { type: 'object', additionalProperties: { type: 'integer' } };

const e401 = answer('Guest `{message: "Unauthenticated."}`', ref('Message'));
const e403 = answer(
  'Not admin or super-admin in the active tenant (gate G1) `{message}`',
  ref('Error'),
);
const e404 = answer('Missing, or another tenant\'s `{error: "not_found", message}`', ref('Error'));
const e422 = answer(
  'Validation failure naming the field `{message, errors}`',
  ref('ValidationError'),
);
const g1 = { '401': e401, '403': e403 };

const pageParams = [
  query('page', { type: 'integer', minimum: 1, default: 1 }),
  query('per_page', {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PER_PAGE,
    default: DEFAULT_PER_PAGE,
  }),
];
const rangeParams = [
  ...pageParams,
  query('from', dateTime, 'Inclusive lower bound (ISO 8601)'),
  query('to', dateTime, 'Inclusive upper bound (ISO 8601)'),
];
const search = (over: string) =>
  query('search', { type: 'string', maxLength: 255 }, `Case-insensitive contains over ${over}`);
const userId = { type: 'string', pattern: '^[1-9][0-9]*$' };
const jobParam = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'BullMQ job id',
  schema: { type: 'string', maxLength: 200 },
};
const queueParam = query('queue', { enum: KB_QUEUE_NAMES, default: KB_QUEUE_NAMES[0] });

export const ADMIN_INSIGHT_PATHS: Record<string, object> = {
  '/api/admin/pii/strategy': {
    get: {
      summary:
        "The tenant's PII strategy: one action per guardrails detector (default mask), and the detokenize permission",
      description: 'Gate `can:viewPiiRedactorAdmin` (admin, super-admin, dpo).',
      responses: {
        '200': answer('Strategy', data(ref('PiiStrategy'))),
        '401': e401,
        '403': answer('Not admin, super-admin or dpo', ref('Error')),
      },
    },
    put: {
      summary:
        'Changes the actions of the detectors given (others keep theirs) and optionally the detokenize permission',
      description:
        'Applies to chat logs written from now on: `mask` writes `[REDACTED:<detector>]`, `tokenize` writes `[PII:<detector>:<uuid>]` and keeps the value encrypted, `keep` stores it as asked.',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['actions'],
          properties: {
            actions: {
              type: 'object',
              description: 'detector → action',
              additionalProperties: { enum: PII_ACTIONS },
              propertyNames: { enum: PII_DETECTORS },
            },
            detokenize_permission: {
              enum: PERMISSIONS,
              description:
                'The setting kb.pii_redactor.detokenize_permission (default pii.detokenize)',
            },
          },
        }),
      },
      responses: {
        '200': answer('Strategy', data(ref('PiiStrategy'))),
        '422': answer(
          'Unknown detector `errors["actions.<detector>"]`, bad action, unknown permission',
          ref('ValidationError'),
        ),
        '401': e401,
        '403': answer('Not admin, super-admin or dpo', ref('Error')),
      },
    },
  },
  '/api/admin/logs/chat': {
    get: {
      summary: 'Chat logs as stored (redacted by the PII strategy), newest first',
      parameters: [
        ...rangeParams,
        search('question and answer'),
        query('user', userId, 'Asked by this user'),
        query('refused', { type: 'boolean' }, 'true: refusals only; false: answers only'),
      ],
      responses: { '200': answer('A page', page(ref('ChatLog'))), '422': e422, ...g1 },
    },
  },
  '/api/admin/logs/chat/{id}': {
    get: {
      summary: 'One chat log with its citations',
      parameters: [pathId('id', 'Chat log id')],
      responses: { '200': answer('Chat log', data(ref('ChatLog'))), '404': e404, ...g1 },
    },
  },
  '/api/admin/logs/chat/{id}/detokenize': {
    post: {
      summary:
        'The question and answer with tokenized values decrypted back in place (masked values are gone for good); recorded in the activity log',
      description:
        "G1 and the permission named by the tenant's `kb.pii_redactor.detokenize_permission` (default `pii.detokenize`).",
      parameters: [pathId('id', 'Chat log id')],
      responses: {
        '200': answer(
          'Original text',
          data({
            type: 'object',
            properties: {
              id: str,
              question: str,
              answer: str,
              restored_values: int,
              unrecoverable: { type: 'integer', description: 'Tokens whose key left the key ring' },
            },
          }),
        ),
        '404': e404,
        '401': e401,
        '403': answer('Not G1, or without the detokenize permission', ref('Error')),
      },
    },
  },
  '/api/admin/logs/canonical-audit': {
    get: {
      summary:
        'The promotion audit (requests, approvals, rejections, denials, dispatch failures), newest first',
      parameters: [
        ...rangeParams,
        search('actor label, source path and title'),
        query('action', { enum: PROMOTION_AUDIT_ACTIONS }),
        query('actor', userId),
      ],
      responses: { '200': answer('A page', page(ref('CanonicalAuditEntry'))), '422': e422, ...g1 },
    },
  },
  '/api/admin/logs/application': {
    get: {
      summary:
        "Server errors (5xx; 502–504 as warnings) of the tenant's requests: route pattern, status, error class and code, request id; never bodies",
      parameters: [
        ...rangeParams,
        search('route, error class, code and request id'),
        query('level', { enum: APPLICATION_LEVELS }),
        query('status', { type: 'integer', minimum: 500, maximum: 599 }),
      ],
      responses: { '200': answer('A page', page(ref('ApplicationLogEntry'))), '422': e422, ...g1 },
    },
  },
  '/api/admin/logs/activity': {
    get: {
      summary:
        'Every mutation under /api/admin and /api/system-admin that passed the gates, successful or failed: actor, method, route pattern, status, target id; never bodies',
      parameters: [
        ...rangeParams,
        search('route, target id and actor e-mail'),
        query('actor', userId),
        query('method', { enum: MUTATION_METHODS }),
        query('outcome', { enum: OUTCOMES }),
      ],
      responses: { '200': answer('A page', page(ref('ActivityLogEntry'))), '422': e422, ...g1 },
    },
  },
  '/api/admin/logs/failed-jobs': {
    get: {
      summary:
        "Failed BullMQ jobs of kb-api's queues that belong to the active tenant, latest failure first",
      parameters: [...rangeParams, search('job name, id and failure reason'), queueParam],
      responses: { '200': answer('A page', page(ref('FailedJob'))), '422': e422, ...g1 },
    },
  },
  '/api/admin/logs/failed-jobs/{id}/retry': {
    post: {
      summary: 'Puts a failed job back in its queue with fresh attempts',
      parameters: [jobParam, queueParam],
      responses: {
        '202': answer(
          'Queued again',
          data({ type: 'object', properties: { id: str, queue: str, state: str } }),
        ),
        '404': answer("Unknown, not failed, or another tenant's job", ref('Error')),
        '422': e422,
        ...g1,
      },
    },
  },
  '/api/admin/logs/failed-jobs/{id}': {
    delete: {
      summary: 'Removes a failed job',
      parameters: [jobParam, queueParam],
      responses: {
        '204': answer('Removed'),
        '404': answer("Unknown, not failed, or another tenant's job", ref('Error')),
        '422': e422,
        ...g1,
      },
    },
  },
  '/api/admin/insights': {
    get: {
      summary: 'The latest insight snapshot (`data: null` before the first compute)',
      responses: { '200': answer('Snapshot', data(nullable(ref('InsightSnapshot')))), ...g1 },
    },
  },
  '/api/admin/insights/history': {
    get: {
      summary: 'Stored snapshots, newest first, each with its totals only',
      parameters: rangeParams,
      responses: {
        '200': answer(
          'A page',
          page({
            type: 'object',
            properties: {
              id: str,
              period_from: dateTime,
              period_to: dateTime,
              computed_by: nullable(str),
              created_at: dateTime,
              totals: ref('InsightTotals'),
            },
          }),
        ),
        '422': e422,
        ...g1,
      },
    },
  },
  '/api/admin/insights/compute': {
    post: {
      summary: 'Computes and stores a snapshot over a period',
      description: `G1 and permission commands.destructive. Default period: the last ${INSIGHT_DEFAULT_DAYS} days up to now.`,
      requestBody: {
        required: false,
        content: json({ type: 'object', properties: { from: dateTime, to: dateTime } }),
      },
      responses: {
        '201': answer('Stored snapshot', data(ref('InsightSnapshot'))),
        '422': answer('Malformed date, or from after to', ref('ValidationError')),
        '401': e401,
        '403': answer('Not G1, or without commands.destructive', ref('Error')),
      },
    },
  },
  '/api/admin/compliance/reports': {
    post: {
      summary: 'Generates a compliance report from live data and stores it',
      description: `data-inventory: personal data per tenant table and PII detector hits in chat logs. access-review: users, roles, permissions, memberships, tokens with last use. retention: row ages per table and what each retention window would remove (defaults: ${Object.entries(
        RETENTION_DEFAULTS,
      )
        .map(([t, r]) => `${t} ${r.days} d`)
        .join(', ')}).`,
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['kind'],
          properties: {
            kind: { enum: REPORT_KINDS },
            retention_days: {
              type: 'object',
              description: 'retention only: table → days kept',
              additionalProperties: { type: 'integer', minimum: 0 },
            },
          },
        }),
      },
      responses: {
        '201': answer('Report (without content)', data(ref('ComplianceReportMeta'))),
        '422': e422,
        ...g1,
      },
    },
    get: {
      summary: 'Stored reports, newest first, without content',
      parameters: [...rangeParams, query('kind', { enum: REPORT_KINDS })],
      responses: { '200': answer('A page', page(ref('ComplianceReportMeta'))), '422': e422, ...g1 },
    },
  },
  '/api/admin/compliance/reports/{id}': {
    get: {
      summary: 'One report with its content',
      parameters: [pathId('id', 'Report id')],
      responses: { '200': answer('Report', data(ref('ComplianceReport'))), '404': e404, ...g1 },
    },
    delete: {
      summary: 'Deletes a report',
      parameters: [pathId('id', 'Report id')],
      responses: { '204': answer('Deleted'), '404': e404, ...g1 },
    },
  },
  '/api/admin/compliance/reports/{id}/download': {
    get: {
      summary: 'The report as an attachment: JSON (the whole report) or CSV (its rows)',
      parameters: [
        pathId('id', 'Report id'),
        query('format', { enum: ['json', 'csv'], default: 'json' }),
      ],
      responses: {
        '200': {
          description:
            'Attachment (`content-disposition: attachment; filename="compliance-<kind>-<id>.<format>"`)',
          content: { ...json(ref('ComplianceReport')), 'text/csv': { schema: str } },
        },
        '404': e404,
        '422': e422,
        ...g1,
      },
    },
  },
};

export const ADMIN_INSIGHT_SCHEMAS: Record<string, object> = {
  PiiStrategy: {
    type: 'object',
    properties: {
      actions: { type: 'object', additionalProperties: { enum: PII_ACTIONS } },
      detokenize_permission: str,
      detectors: { type: 'array', items: { enum: PII_DETECTORS } },
      available_actions: { type: 'array', items: { enum: PII_ACTIONS } },
      updated_at: nullable(dateTime),
      updated_by: nullable(str),
    },
  },
  ChatLog: {
    type: 'object',
    properties: {
      id: str,
      user: nullable({ type: 'object', properties: { id: str, name: str, email: str } }),
      project_key: nullable(str),
      question: {
        type: 'string',
        description: 'As stored: PII masked or tokenized by the strategy',
      },
      answer: str,
      confidence: int,
      refusal_reason: nullable(str),
      refused: { type: 'boolean' },
      provider: nullable(str),
      model: nullable(str),
      latency_ms: int,
      pii_hits: { ...counts, description: 'Findings per detector before redaction' },
      tokenized_values: int,
      created_at: dateTime,
      citations: {
        type: 'array',
        description: 'Detail only',
        items: {
          type: 'object',
          properties: { document_id: int, chunks: { type: 'array', items: int } },
        },
      },
    },
  },
  CanonicalAuditEntry: {
    type: 'object',
    properties: {
      id: str,
      approval_id: nullable({ type: 'string', format: 'uuid' }),
      action: { enum: PROMOTION_AUDIT_ACTIONS },
      actor_user_id: nullable(str),
      actor_label: nullable(str),
      detail: { type: 'object' },
      approval: nullable({
        type: 'object',
        properties: { project_key: str, source_path: str, title: str, status: str },
      }),
      created_at: dateTime,
    },
  },
  ApplicationLogEntry: {
    type: 'object',
    properties: {
      id: str,
      level: { enum: APPLICATION_LEVELS },
      method: str,
      route: str,
      status: int,
      error_class: str,
      error_code: nullable(str),
      request_id: nullable(str),
      user_id: nullable(str),
      created_at: dateTime,
    },
  },
  ActivityLogEntry: {
    type: 'object',
    properties: {
      id: str,
      actor: {
        type: 'object',
        properties: { kind: { enum: ['session', 'token', 'iam'] }, id: str, name: str, email: str },
      },
      method: { enum: MUTATION_METHODS },
      route: { type: 'string', description: 'Route pattern, e.g. /api/admin/users/:user' },
      status: int,
      outcome: { enum: OUTCOMES },
      target_id: nullable(str),
      request_id: nullable(str),
      created_at: dateTime,
    },
  },
  FailedJob: {
    type: 'object',
    properties: {
      id: str,
      queue: { enum: KB_QUEUE_NAMES },
      name: str,
      data: { type: 'object' },
      failed_reason: str,
      attempts_made: int,
      max_attempts: int,
      created_at: dateTime,
      failed_at: nullable(dateTime),
      stacktrace: { type: 'array', items: str, description: 'The last three' },
    },
  },
  InsightTotals: {
    type: 'object',
    properties: {
      questions: int,
      refused: int,
      refusal_rate: { type: 'number' },
      mean_confidence: nullable({ type: 'number', description: 'Over answered questions' }),
    },
  },
  InsightSnapshot: {
    type: 'object',
    properties: {
      id: str,
      period_from: dateTime,
      period_to: dateTime,
      computed_by: nullable(str),
      created_at: dateTime,
      data: {
        type: 'object',
        properties: {
          totals: ref('InsightTotals'),
          top_questions: {
            type: 'array',
            items: {
              type: 'object',
              properties: { question: str, asked: int, refused: int, last_asked_at: dateTime },
            },
          },
          per_project: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                project_key: str,
                questions: int,
                refused: int,
                refusal_rate: { type: 'number' },
                mean_confidence: nullable({ type: 'number' }),
              },
            },
          },
          per_day: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                day: { type: 'string', format: 'date' },
                questions: int,
                refused: int,
                refusal_rate: { type: 'number' },
                mean_confidence: nullable({ type: 'number' }),
              },
            },
          },
          most_cited_documents: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                document_id: str,
                title: str,
                project_key: str,
                source_path: str,
                citations: int,
              },
            },
          },
          never_cited_documents: {
            type: 'object',
            properties: {
              total: int,
              sample: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: { document_id: str, title: str, project_key: str, source_path: str },
                },
              },
            },
          },
          feedback: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                document_id: str,
                title: str,
                project_key: str,
                helpful: int,
                unhelpful: int,
              },
            },
          },
        },
      },
    },
  },
  ComplianceReportMeta: {
    type: 'object',
    properties: {
      id: str,
      kind: { enum: REPORT_KINDS },
      params: { type: 'object' },
      row_count: int,
      created_by: nullable(str),
      created_at: dateTime,
    },
  },
  ComplianceReport: {
    allOf: [
      ref('ComplianceReportMeta'),
      {
        type: 'object',
        properties: {
          content: {
            type: 'object',
            properties: {
              summary: { type: 'object' },
              rows: { type: 'array', items: { type: 'object' } },
              columns: { type: 'array', items: str, description: 'CSV header order' },
            },
          },
        },
      },
    ],
  },
};
