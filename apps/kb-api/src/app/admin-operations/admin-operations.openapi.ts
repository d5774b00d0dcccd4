import { MAX_PER_PAGE } from '../admin/pagination';
import { MAINTENANCE_COMMANDS } from './commands/command-catalogue';
import { CONNECTOR_LIMITS } from './connectors/connector-settings';
import { CONNECTOR_KINDS } from './connectors/connectors.dto';
import { MAX_REVIEW_COLUMNS, MAX_REVIEW_DOCUMENTS } from './tabular-reviews/tabular-reviews.dto';
import { WORKFLOW_KINDS } from './workflows/workflows.dto';
import { answer, body, bool, data, dateTime, int, nullable, obj, page, pathId, query, ref, str } from '../openapi-parts';

/** OpenAPI paths and schemas of KbAdminOperationsModule, merged into the kb-api document by ../openapi.ts. */
const counts = { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } };
const pageParams = [query('page', { type: 'integer', minimum: 1, default: 1 }), query('per_page', { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: 15 })];
const search = (what: string) => query('search', { type: 'string', maxLength: 255 }, `Case-insensitive "contains" on the ${what}`);

const G1 = 'Gate G1 (`role:admin|super-admin` in the active tenant).';
const CONNECTORS = 'Gate `can:manageConnectors` (admin, super-admin).';
const REVIEWS_VIEW = 'Gate `can:viewTabularReviews` (viewer, admin, super-admin).';
const REVIEWS_ACT = 'Gate `can:viewTabularReviews` and G1 (admin, super-admin): viewers only read.';
const WORKFLOWS = 'Gate `can:viewWorkflows` (viewer, admin, super-admin).';
const guarded = {
  '401': answer('Guest `{message: "Unauthenticated."}`', ref('Message')),
  '403': answer('The gate refuses the caller `{message}`', ref('Error')),
};
const e404 = answer('Missing, or another tenant\'s `{error: "not_found", message}`', ref('Error'));
const e422 = answer('Invalid input `{message, errors: {field: [...]}}`', ref('ValidationError'));
const connectorId = pathId('id', 'Connector id');
const reviewId = pathId('id', 'Tabular review id');

const commandRequest = body({
  type: 'object',
  required: ['command'],
  properties: {
    command: { enum: MAINTENANCE_COMMANDS.map((c) => c.name) },
    params: { type: 'object', description: "The command's parameters (see the catalogue); unknown ones are refused as `errors[\"params.<name>\"]`" },
  },
});

const connectorConfig = {
  oneOf: [
    obj({ path: { type: 'string', description: 'An absolute directory under one of KB_CONNECTOR_FS_ROOTS' } }, ['path']),
    obj(
      {
        urls: {
          type: 'array',
          minItems: 1,
          maxItems: CONNECTOR_LIMITS.maxUrls,
          uniqueItems: true,
          items: { type: 'string', format: 'uri', maxLength: 2048, description: 'http(s); private and loopback addresses only when KB_CONNECTOR_WEB_ALLOWED_PRIVATE allows them' },
        },
      },
      ['urls'],
    ),
  ],
};

export const ADMIN_OPERATIONS_PATHS: Record<string, object> = {
  '/api/admin/commands/catalogue': {
    get: {
      summary: 'The maintenance commands with their typed parameters',
      description: `${G1} \`allowed\` says whether the caller may run the command (a destructive one also needs permission commands.destructive).`,
      responses: { '200': answer('Commands', data({ type: 'array', items: ref('OpsCommand') })), ...guarded },
    },
  },
  '/api/admin/commands/preview': {
    post: {
      summary: 'What a run would change, as counts, without changing anything',
      description: `${G1} Previewing a destructive command needs no extra permission.`,
      requestBody: commandRequest,
      responses: {
        '200': answer('Counts', data(obj({ command: str, destructive: bool, params: { type: 'object' }, would_change: counts }))),
        '422': e422,
        ...guarded,
      },
    },
  },
  '/api/admin/commands/run': {
    post: {
      summary: 'Runs a command in the active tenant and records it in the history',
      description: `${G1} A destructive command also needs permission commands.destructive (403). With an \`Idempotency-Key\` header the command runs once per key and tenant: a retry answers the first run with \`Idempotent-Replayed: true\`; the key with another command or other parameters is a 409.`,
      parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } }],
      requestBody: commandRequest,
      responses: {
        '200': answer('The recorded run (`status` succeeded or failed)', data(ref('OpsCommandRun'))),
        '409': answer('`{error: "idempotency_key_reused", message, run_id}`', ref('Error')),
        '422': e422,
        ...guarded,
      },
    },
  },
  '/api/admin/commands/history': {
    get: {
      summary: 'Command runs, newest first',
      description: G1,
      parameters: [...pageParams, query('command', { enum: MAINTENANCE_COMMANDS.map((c) => c.name) }), query('status', { enum: ['running', 'succeeded', 'failed'] })],
      responses: { '200': answer('A page of runs', page(ref('OpsCommandRun'))), '422': e422, ...guarded },
    },
  },
  '/api/admin/commands/scheduler-status': {
    get: {
      summary: 'The scheduled commands (CLI task run by a CronJob), with their last run and next due time',
      description: G1,
      responses: { '200': answer('Schedules', data({ type: 'array', items: ref('OpsCommandSchedule') })), ...guarded },
    },
  },
  '/api/admin/connectors': {
    get: {
      summary: 'Connectors of the active tenant, newest first',
      description: CONNECTORS,
      parameters: [...pageParams, search('name'), query('kind', { enum: CONNECTOR_KINDS })],
      responses: { '200': answer('A page of connectors', page(ref('OpsConnector'))), '422': e422, ...guarded },
    },
    post: {
      summary: 'Creates a connector',
      description: `${CONNECTORS} \`config\` is \`{path}\` for kind filesystem, \`{urls}\` for kind web. The name is unique per tenant (case-insensitive).`,
      requestBody: body(
        obj(
          {
            name: { type: 'string', minLength: 1, maxLength: 120 },
            kind: { enum: CONNECTOR_KINDS },
            project_key: { type: 'string', maxLength: 120, description: 'Project of the documents; default KB_INGEST_DEFAULT_PROJECT' },
            config: connectorConfig,
            enabled: { type: 'boolean', default: true },
          },
          ['name', 'kind', 'config'],
        ),
      ),
      responses: { '201': answer('Created', data(ref('OpsConnector'))), '422': e422, ...guarded },
    },
  },
  '/api/admin/connectors/{id}': {
    get: { summary: 'One connector with its last run', description: CONNECTORS, parameters: [connectorId], responses: { '200': answer('Connector', data(ref('OpsConnector'))), '404': e404, ...guarded } },
    patch: {
      summary: 'Renames, re-targets, enables or disables a connector (its kind stays)',
      description: CONNECTORS,
      parameters: [connectorId],
      requestBody: body(obj({ name: { type: 'string', minLength: 1, maxLength: 120 }, project_key: { type: 'string', maxLength: 120 }, config: connectorConfig, enabled: bool })),
      responses: { '200': answer('Connector', data(ref('OpsConnector'))), '404': e404, '422': e422, ...guarded },
    },
    delete: {
      summary: 'Deletes a connector and its run history (documents it brought stay)',
      description: CONNECTORS,
      parameters: [connectorId],
      responses: { '204': answer('Deleted'), '404': e404, ...guarded },
    },
  },
  '/api/admin/connectors/{id}/sync': {
    post: {
      summary: 'Reads the source now and queues what changed for ingest',
      description: `${CONNECTORS} Files or pages whose content equals the document's current version are skipped as unchanged. Web fetches refuse private and loopback addresses (unless allowed), stop at ${CONNECTOR_LIMITS.maxPageBytes} bytes and ${CONNECTOR_LIMITS.fetchTimeoutMs} ms and follow at most ${CONNECTOR_LIMITS.maxRedirects} redirects; a directory sync reads at most ${CONNECTOR_LIMITS.maxFiles} files of at most ${CONNECTOR_LIMITS.maxFileBytes} bytes.`,
      parameters: [connectorId],
      responses: {
        '200': answer('The run', data(ref('OpsConnectorRun'))),
        '404': e404,
        '409': answer('`{error: "connector_disabled" | "sync_in_progress", message}`', ref('Error')),
        ...guarded,
      },
    },
  },
  '/api/admin/connectors/{id}/runs': {
    get: {
      summary: "The connector's sync runs, newest first",
      description: CONNECTORS,
      parameters: [connectorId, ...pageParams],
      responses: { '200': answer('A page of runs', page(ref('OpsConnectorRun'))), '404': e404, '422': e422, ...guarded },
    },
  },
  '/api/admin/tabular-reviews': {
    get: {
      summary: 'Tabular reviews, newest first',
      description: REVIEWS_VIEW,
      parameters: [...pageParams, search('name')],
      responses: { '200': answer('A page of reviews', page(ref('OpsTabularReviewSummary'))), '422': e422, ...guarded },
    },
    post: {
      summary: 'Creates a review: documents (listed, or every document of a project) × column questions',
      description: REVIEWS_ACT,
      requestBody: body(
        obj(
          {
            name: { type: 'string', minLength: 1, maxLength: 200 },
            document_ids: { type: 'array', minItems: 1, maxItems: MAX_REVIEW_DOCUMENTS, uniqueItems: true, items: { type: 'integer', minimum: 1 }, description: 'Exactly one of document_ids and project_key' },
            project_key: { type: 'string', maxLength: 120, description: `At most ${MAX_REVIEW_DOCUMENTS} documents` },
            columns: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_REVIEW_COLUMNS,
              items: obj({ question: { type: 'string', minLength: 3, maxLength: 500 }, label: { type: 'string', maxLength: 120, description: 'Default: the question' } }, ['question']),
            },
          },
          ['name', 'columns'],
        ),
      ),
      responses: { '201': answer('Created (cells empty until run)', data(ref('OpsTabularReview'))), '422': e422, ...guarded },
    },
  },
  '/api/admin/tabular-reviews/{id}': {
    get: { summary: 'One review with its grid', description: REVIEWS_VIEW, parameters: [reviewId], responses: { '200': answer('Review', data(ref('OpsTabularReview'))), '404': e404, ...guarded } },
    delete: { summary: 'Deletes a review and its cells', description: REVIEWS_ACT, parameters: [reviewId], responses: { '204': answer('Deleted'), '404': e404, ...guarded } },
  },
  '/api/admin/tabular-reviews/{id}/run': {
    post: {
      summary: 'Fills every cell again: an extractive answer from that document only, with its citation, or no_answer',
      description: REVIEWS_ACT,
      parameters: [reviewId],
      responses: { '200': answer('The filled review', data(ref('OpsTabularReview'))), '404': e404, ...guarded },
    },
  },
  '/api/admin/tabular-reviews/{id}/export.csv': {
    get: {
      summary: 'The grid as CSV: per document its id, title and path, per column the answer and its citation',
      description: `${REVIEWS_VIEW} Cells starting with = + - @ are prefixed with an apostrophe so spreadsheets do not run them.`,
      parameters: [reviewId],
      responses: { '200': { description: 'CSV (attachment)', content: { 'text/csv': { schema: str } } }, '404': e404, ...guarded },
    },
  },
  '/api/admin/workflows': {
    get: {
      summary: 'The KB flows (promotion approvals, document ingests, connector syncs, command runs), newest first',
      description: WORKFLOWS,
      parameters: [
        ...pageParams,
        query('kind', { enum: WORKFLOW_KINDS }),
        query('status', { type: 'string', maxLength: 40 }, "The kind's own status (promotion pending/approved/rejected/failed, ingest pending/indexed/failed, sync running/succeeded/partial/failed, command running/succeeded/failed)"),
        query('from', { type: 'string', format: 'date-time' }, 'Started at or after'),
        query('to', { type: 'string', format: 'date-time' }, 'Started at or before'),
      ],
      responses: { '200': answer('A page of flows', page(ref('OpsWorkflow'))), '422': e422, ...guarded },
    },
  },
  '/api/admin/workflows/{kind}/{id}': {
    get: {
      summary: 'One flow with its steps and timestamps',
      description: WORKFLOWS,
      parameters: [
        { name: 'kind', in: 'path', required: true, schema: { enum: WORKFLOW_KINDS } },
        { name: 'id', in: 'path', required: true, description: 'A uuid for promotion, else a row id', schema: { type: 'string' } },
      ],
      responses: { '200': answer('Flow', data(ref('OpsWorkflowDetail'))), '404': e404, ...guarded },
    },
  },
};

const actor = nullable(obj({ id: str, name: str, email: str }));

export const ADMIN_OPERATIONS_SCHEMAS: Record<string, object> = {
  OpsCommand: obj({
    name: str,
    description: str,
    destructive: bool,
    allowed: bool,
    params: {
      type: 'array',
      items: obj(
        {
          name: str,
          type: { enum: ['integer', 'boolean', 'string'] },
          description: str,
          required: bool,
          default: { type: ['integer', 'boolean', 'string'] },
          minimum: int,
          maximum: int,
          maxLength: int,
          pattern: str,
        },
        ['name', 'type', 'description'],
      ),
    },
  }),
  OpsCommandRun: obj({
    id: str,
    command: str,
    params: { type: 'object' },
    status: { enum: ['running', 'succeeded', 'failed'] },
    result: counts,
    error: nullable(str),
    trigger: { enum: ['api', 'schedule'] },
    actor,
    idempotency_key: nullable(str),
    started_at: dateTime,
    finished_at: nullable(dateTime),
    duration_ms: nullable(int),
  }),
  OpsCommandSchedule: obj({
    command: str,
    cron: { type: 'string', description: 'Five fields, UTC' },
    timezone: { const: 'Etc/UTC' },
    params: { type: 'object' },
    cli_task: { type: 'string', description: 'What the CronJob runs: `node cli.js <cli_task>`' },
    last_run: nullable(obj({ id: str, status: str, trigger: str, started_at: dateTime, finished_at: nullable(dateTime), result: counts })),
    next_due_at: nullable(dateTime),
    overdue: { type: 'boolean', description: 'No run since the schedule last fired' },
  }),
  OpsConnector: obj({
    id: str,
    name: str,
    kind: { enum: CONNECTOR_KINDS },
    project_key: str,
    config: connectorConfig,
    enabled: bool,
    created_by: nullable(str),
    last_synced_at: nullable(dateTime),
    last_run: nullable(ref('OpsConnectorRun')),
    created_at: dateTime,
    updated_at: dateTime,
  }),
  OpsConnectorRun: obj({
    id: str,
    connector_id: str,
    status: { enum: ['running', 'succeeded', 'partial', 'failed'] },
    seen: { type: 'integer', description: 'Documents found in the source' },
    queued: { type: 'integer', description: 'Stored and queued for indexing' },
    skipped_unchanged: int,
    failed: int,
    errors: { type: 'array', items: obj({ source_path: str, error: str }) },
    document_ids: { type: 'array', items: int },
    triggered_by: nullable(str),
    started_at: dateTime,
    finished_at: nullable(dateTime),
  }),
  OpsTabularReviewSummary: obj({
    id: str,
    name: str,
    project_key: nullable(str),
    status: { enum: ['draft', 'completed', 'failed'] },
    document_count: int,
    column_count: int,
    created_by: nullable(obj({ id: str, name: str })),
    last_run_at: nullable(dateTime),
    created_at: dateTime,
    updated_at: dateTime,
  }),
  OpsTabularReview: {
    allOf: [
      ref('OpsTabularReviewSummary'),
      obj({
        columns: { type: 'array', items: obj({ index: int, label: str, question: str }) },
        rows: {
          type: 'array',
          items: obj({
            document: obj({ id: int, title: nullable(str), source_path: nullable(str), project_key: nullable(str), deleted: bool }),
            cells: { type: 'array', description: 'One per column; null until the review runs', items: nullable(ref('OpsTabularCell')) },
          }),
        },
      }),
    ],
  },
  OpsTabularCell: obj({
    status: { enum: ['answered', 'no_answer'] },
    answer: nullable(str),
    citation: nullable(
      obj({ chunk_id: int, document_id: int, source_path: str, title: str, heading_path: nullable(str), quote: str, score: { type: 'number' } }),
    ),
    answered_at: dateTime,
  }),
  OpsWorkflow: obj({
    kind: { enum: WORKFLOW_KINDS },
    id: str,
    status: str,
    title: str,
    started_at: dateTime,
    finished_at: nullable(dateTime),
    actor: nullable(obj({ id: str, name: str })),
  }),
  OpsWorkflowDetail: {
    allOf: [
      ref('OpsWorkflow'),
      obj({
        steps: {
          type: 'array',
          items: obj({ name: str, status: { enum: ['done', 'pending', 'failed', 'skipped'] }, at: nullable(dateTime), detail: { type: 'object' } }),
        },
      }),
    ],
  },
};
