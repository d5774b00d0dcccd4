import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../admin/pagination';
import { ANALYSIS_KINDS } from './analyses/analyses.dto';
import { DOCUMENT_STATUSES } from './inventory/inventory.dto';
import { MAX_SERIES_DAYS, SERIES_METRICS } from './metrics/metrics.dto';
import { ANALYSIS_DEFAULTS, AUTOWIKI_DEFAULTS, EVIDENCE_TIER_DEFAULTS } from './settings/knowledge-settings';
import { SOURCE_TYPES } from './settings/settings.dto';
import { answer, body, bool, data, dateTime, int, json, nullable, obj, page, pathId, query, ref, str } from '../openapi-parts';

/** OpenAPI paths and schemas of KbAdminKnowledgeModule, merged into the kb-api document by ../openapi.ts. */

const G1 = 'Gate G1 (`role:admin|super-admin` in the active tenant).';
const guarded = {
  '401': answer('Guest `{message: "Unauthenticated."}`', ref('Message')),
  '403': answer('Not an admin of the active tenant `{message: "This action is unauthorized."}`', ref('Error')),
};
const e404 = answer('Missing, or another tenant\'s `{error: "not_found", message}`', ref('Error'));
const e422 = answer('Validation failure naming the field `{message, errors: {field: [messages]}}`; unknown keys are refused', ref('ValidationError'));
const pageParams = [
  query('page', { type: 'integer', minimum: 1, default: 1 }),
  query('per_page', { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE }),
];
const searchParam = query('search', { type: 'string', maxLength: 255 }, 'Case-insensitive "contains"');

interface Op {
  summary: string;
  description?: string;
  parameters?: object[];
  requestBody?: object;
  responses: Record<string, object>;
}
/** Every operation here is G1 and may answer 401/403; the description leads with the gate. */
const op = (o: Op) => ({ ...o, description: o.description ? `${G1} ${o.description}` : G1, responses: { ...o.responses, ...guarded } });

const documentParam = pathId('id', 'Document id (of the active tenant)');
const collectionParam = pathId('id', 'Collection id (of the active tenant)');
const synonymParam = pathId('id', 'Synonym set id (of the active tenant)');
const analysisParam = pathId('id', 'Analysis id (of the active tenant)');
const conceptParam = pathId('id', 'Concept id (of the active tenant)');
const wikiPageParam = pathId('id', 'The concept id the page belongs to');
const gapParam = pathId('id', 'Content gap id: md5 of the normalised question', '^[0-9a-f]{32}$');
const tagParam = { name: 'tag', in: 'path', required: true, description: 'The tag, URL-encoded', schema: { type: 'string', maxLength: 100 } };
const settings = (schema: string) => obj({ data: ref(schema), defaults: ref(schema), updated_at: nullable(dateTime) }, ['data', 'defaults', 'updated_at']);
const finding = (sample: object) => obj({ count: int, samples: { type: 'array', maxItems: 10, items: sample } });
const sampleDocument = obj({ id: int, project_key: str, source_path: str, title: str, status: str, updated_at: dateTime });
const chatWindow = obj({ total: int, refused: int, refusal_rate: { type: 'number', minimum: 0, maximum: 1 } });
const check = obj({ status: { enum: ['ok', 'degraded'] }, latency_ms: int, detail: { type: 'string', description: 'Why it is degraded' } }, ['status', 'latency_ms']);

export const ADMIN_KNOWLEDGE_PATHS: Record<string, object> = {
  '/api/admin/metrics/overview': {
    get: op({
      summary: 'Dashboard counts of the active tenant',
      description:
        'Documents (by status), chunks, projects, users (home tenant), chats and refusal rate over the last 24 hours and 7 days and the mean confidence of answered chats over 7 days (kb_chat_logs), the ingest queue (shared by every tenant) and chunk feedback counts.',
      responses: { '200': answer('The overview', ref('MetricsOverview')) },
    }),
  },
  '/api/admin/metrics/health': {
    get: op({
      summary: 'Health of the database, Redis, the ingest queue and its workers',
      description: 'Each check is `ok` or `degraded` with its latency (2 s limit each); `worker` is degraded when no worker is connected to the ingest queue, `queue` when more than 1000 jobs wait. Always 200.',
      responses: {
        '200': answer('Checks', obj({ status: { enum: ['ok', 'degraded'] }, checks: obj({ database: check, redis: check, queue: check, worker: check }), checked_at: dateTime })),
      },
    }),
  },
  '/api/admin/metrics/timeseries': {
    get: op({
      summary: 'Daily counts over the last `days` UTC days (today last)',
      description: '`chats`: chat log rows; `refusals`: those with a refusal reason; `ingested`: documents whose current version was indexed that day. Days without events count 0.',
      parameters: [query('metric', { enum: SERIES_METRICS }), query('days', { type: 'integer', minimum: 1, maximum: MAX_SERIES_DAYS, default: 14 })],
      responses: {
        '200': answer('Buckets', obj({ metric: { enum: SERIES_METRICS }, days: int, total: int, data: { type: 'array', items: obj({ date: { type: 'string', format: 'date' }, value: int }) } })),
        '422': e422,
      },
    }),
  },
  '/api/admin/kb/tree': {
    get: op({
      summary: 'Projects → folders (from source paths) → documents, with counts',
      description: 'Counts cover every document; at most 2000 documents are listed (`documents_truncated`). An unknown `project` answers 404.',
      parameters: [query('project', { type: 'string', maxLength: 120 })],
      responses: {
        '200': answer('The tree', obj({ data: { type: 'array', items: ref('KbTreeProject') }, documents_truncated: bool, document_limit: int })),
        '404': e404,
        '422': e422,
      },
    }),
  },
  '/api/admin/kb/health': {
    get: op({
      summary: 'Findings about the knowledge base, each with a count and up to 10 samples',
      description:
        '`without_chunks` (indexed, no chunks), `failed_ingests`, `stuck_ingests` (pending longer than `stuck_ingest_minutes`), `duplicate_content` (same content hash), `broken_links` (wikilinks to no live document), `stale_documents` (not indexed for `stale_days`, default the analysis settings\' `stale_after_days`).',
      parameters: [query('stale_days', { type: 'integer', minimum: 1, maximum: 3650 })],
      responses: {
        '200': answer(
          'Findings',
          obj({
            status: { enum: ['healthy', 'attention'] },
            thresholds: obj({ stale_after_days: int, stuck_ingest_minutes: int }),
            findings: obj({
              without_chunks: finding(sampleDocument),
              failed_ingests: finding({ allOf: [sampleDocument, obj({ error: nullable(str) })] }),
              stuck_ingests: finding(sampleDocument),
              duplicate_content: finding(obj({ content_hash: str, documents: { type: 'array', items: obj({ id: int, project_key: str, source_path: str, title: str }) } })),
              broken_links: finding(obj({ document_id: int, project_key: str, source_path: str, target_slug: str })),
              stale_documents: finding({ allOf: [sampleDocument, obj({ indexed_at: nullable(dateTime) })] }),
            }),
          }),
        ),
        '422': e422,
      },
    }),
  },
  '/api/admin/kb/documents': {
    get: op({
      summary: 'Documents across projects, by project and source path',
      parameters: [
        ...pageParams,
        searchParam,
        query('project', { type: 'string', maxLength: 120 }),
        query('status', { enum: DOCUMENT_STATUSES }),
        query('source_type', { type: 'string', maxLength: 32 }),
        query('tag', { type: 'string', maxLength: 100 }),
      ],
      responses: { '200': answer('A page', page(ref('AdminDocument'))), '422': e422 },
    }),
  },
  '/api/admin/kb/documents/{id}': {
    get: op({
      summary: 'One document with its chunks (first 500) and its outgoing and incoming wikilinks',
      parameters: [documentParam],
      responses: {
        '200': answer(
          'The document',
          data({
            allOf: [
              ref('AdminDocument'),
              obj({
                metadata: { type: 'object' },
                content_hash: nullable(str),
                language: str,
                chunks: {
                  type: 'array',
                  items: obj({
                    id: int,
                    ord: int,
                    heading_path: nullable(str),
                    text: str,
                    chunk_hash: str,
                    wikilinks: { type: 'array', items: str },
                    injection_flagged: { type: 'boolean', description: 'The ingest screen found instructions aimed at the model: excluded from answers, or quoted as untrusted data (`indirect_injection.flagged_content`)' },
                    injection_rule_id: { ...nullable(str), description: 'The rule or classifier that matched (also in monitor mode, where nothing is flagged)' },
                    injection_audit_id: { ...nullable(int), description: 'The guardrails audit row (principal `document:<id>`)' },
                  }),
                },
                chunks_truncated: bool,
                flagged_chunk_count: { type: 'integer', description: 'Chunks of the document the ingest screen flagged (all, not only those shown)' },
                links: obj({
                  outgoing: { type: 'array', items: obj({ target_slug: str, resolved: bool, document_id: nullable(int), title: nullable(str), project_key: nullable(str) }) },
                  incoming: { type: 'array', items: obj({ document_id: int, title: str, project_key: str, source_path: str }) },
                }),
              }),
            ],
          }),
        ),
        '404': e404,
      },
    }),
  },
  '/api/admin/kb/documents/{id}/reindex': {
    post: op({
      summary: 'Re-dispatches the ingest job for the stored original',
      description: 'The document stays searchable with its current chunks until the new ones swap in. 409 `original_missing` when the stored original is gone.',
      parameters: [documentParam],
      responses: {
        '202': answer('Queued', obj({ document_id: int, status: { const: 'queued' }, job_id: str, version_hash: str })),
        '404': e404,
        '409': answer('The stored original is gone `{error: "original_missing", message}`', ref('Error')),
      },
    }),
  },
  '/api/admin/kb/collections': {
    get: op({ summary: 'Collections with their document counts, by name', parameters: [...pageParams, searchParam], responses: { '200': answer('A page', page(ref('AdminCollection'))), '422': e422 } }),
    post: op({
      summary: 'Creates a collection (slug from the name when absent)',
      requestBody: body(ref('CollectionInput')),
      responses: { '201': answer('Created', data(ref('AdminCollection'))), '422': e422 },
    }),
  },
  '/api/admin/kb/collections/{id}': {
    get: op({ summary: 'One collection', parameters: [collectionParam], responses: { '200': answer('The collection', data(ref('AdminCollection'))), '404': e404 } }),
    patch: op({
      summary: 'Changes name, slug, description or criteria',
      parameters: [collectionParam],
      requestBody: body(ref('CollectionInput')),
      responses: { '200': answer('Updated', data(ref('AdminCollection'))), '404': e404, '422': e422 },
    }),
    delete: op({ summary: 'Deletes a collection and takes it off its documents', parameters: [collectionParam], responses: { '204': answer('Deleted'), '404': e404 } }),
  },
  '/api/admin/kb/collections/{id}/documents': {
    post: op({
      summary: "Adds and removes documents (their metadata.collection_ids, which the chat's collection filter reads)",
      description: 'Unknown and other tenants\' document ids are ignored; `added`/`removed` list the documents changed.',
      parameters: [collectionParam],
      requestBody: body(obj({ add: { type: 'array', maxItems: 1000, items: { type: 'integer', minimum: 1 } }, remove: { type: 'array', maxItems: 1000, items: { type: 'integer', minimum: 1 } } })),
      responses: {
        '200': answer('Changed', obj({ added: { type: 'array', items: int }, removed: { type: 'array', items: int }, data: ref('AdminCollection') })),
        '404': e404,
        '422': e422,
      },
    }),
  },
  '/api/admin/kb/tags': {
    get: op({
      summary: "Tags of the tenant's documents (metadata.tags) with document counts, most used first",
      parameters: [...pageParams, searchParam],
      responses: { '200': answer('A page', page(obj({ tag: str, documents: int }))), '422': e422 },
    }),
  },
  '/api/admin/kb/tags/{tag}': {
    patch: op({
      summary: 'Renames a tag on every document (a document already carrying the new name keeps one)',
      parameters: [tagParam],
      requestBody: body(obj({ name: { type: 'string', minLength: 1, maxLength: 100 } }, ['name'])),
      responses: { '200': answer('Renamed', obj({ tag: str, previous: str, documents: int })), '404': e404, '422': e422 },
    }),
    delete: op({ summary: 'Removes a tag from every document', parameters: [tagParam], responses: { '200': answer('Removed', obj({ tag: str, removed_from: int })), '404': e404 } }),
  },
  '/api/admin/kb/synonyms': {
    get: op({
      summary: 'Synonym sets',
      parameters: [...pageParams, query('search', { type: 'string', maxLength: 255 }, 'A term contains it'), query('project', { type: 'string', maxLength: 120 })],
      responses: { '200': answer('A page', page(ref('SynonymSet'))), '422': e422 },
    }),
    post: op({
      summary: 'Creates a synonym set used by retrieval at once',
      description:
        'Terms are trimmed, lower-cased and de-duplicated; at least two must remain and each must hold a searchable word. A question word equal to a one-word member is searched as that word OR every other member (several words: a phrase). A set with a project applies when the question is not filtered to other projects. At most 1000 sets per tenant.',
      requestBody: body(ref('SynonymSetInput')),
      responses: { '201': answer('Created', data(ref('SynonymSet'))), '422': e422 },
    }),
  },
  '/api/admin/kb/synonyms/{id}': {
    get: op({ summary: 'One synonym set', parameters: [synonymParam], responses: { '200': answer('The set', data(ref('SynonymSet'))), '404': e404 } }),
    put: op({
      summary: 'Replaces a synonym set',
      parameters: [synonymParam],
      requestBody: body(ref('SynonymSetInput')),
      responses: { '200': answer('Updated', data(ref('SynonymSet'))), '404': e404, '422': e422 },
    }),
    delete: op({ summary: 'Deletes a synonym set', parameters: [synonymParam], responses: { '204': answer('Deleted'), '404': e404 } }),
  },
  '/api/admin/kb/analyses': {
    get: op({
      summary: 'Stored analyses, newest first (without their results)',
      parameters: [...pageParams, query('project', { type: 'string', maxLength: 120 })],
      responses: { '200': answer('A page', page(ref('AnalysisSummary'))), '422': e422 },
    }),
    post: op({
      summary: 'Runs an analysis of a project and stores it',
      description: '`coverage`: documents and chunks per folder, the most widespread terms (count set by the analysis settings\' `top_terms`), orphan documents (no wikilink in or out; first 100 listed).',
      requestBody: body(obj({ project_key: { type: 'string', maxLength: 120 }, kind: { enum: ANALYSIS_KINDS, default: 'coverage' } }, ['project_key'])),
      responses: { '201': answer('The analysis', data(ref('Analysis'))), '422': e422 },
    }),
  },
  '/api/admin/kb/analyses/{id}': {
    get: op({ summary: 'One analysis with its result', parameters: [analysisParam], responses: { '200': answer('The analysis', data(ref('Analysis'))), '404': e404 } }),
  },
  '/api/admin/kb/analysis-settings': {
    get: op({ summary: "The tenant's analysis settings (defaults when unset)", responses: { '200': answer('Settings', settings('AnalysisSettings')) } }),
    put: op({
      summary: 'Replaces the analysis settings; absent keys fall back to their defaults',
      requestBody: body(ref('AnalysisSettings')),
      responses: { '200': answer('Settings', settings('AnalysisSettings')), '422': e422 },
    }),
  },
  '/api/admin/kb/autowiki-settings': {
    get: op({ summary: "The tenant's auto-wiki settings (defaults when unset)", responses: { '200': answer('Settings', settings('AutowikiSettings')) } }),
    put: op({
      summary: 'Replaces the auto-wiki settings; absent keys fall back to their defaults',
      requestBody: body(ref('AutowikiSettings')),
      responses: { '200': answer('Settings', settings('AutowikiSettings')), '422': e422 },
    }),
  },
  '/api/admin/kb/evidence-tiers': {
    get: op({ summary: "The tenant's evidence tier map", responses: { '200': answer('Tier map', settings('EvidenceTiers')) } }),
    put: op({
      summary: 'Replaces the tier map',
      description: 'Each tier names exactly one of `source_type` and `path_prefix` (a folder), at most once. A document takes the rank of its longest matching prefix, else of its source type, else `default_rank`; admin document lists and wiki pages show it.',
      requestBody: body(ref('EvidenceTiers')),
      responses: { '200': answer('Tier map', settings('EvidenceTiers')), '422': e422 },
    }),
  },
  '/api/admin/kb/content-gaps': {
    get: op({
      summary: 'Questions the knowledge base could not answer well, grouped by normalised question, most asked first',
      description:
        'Chat log rows of the last `days` days refused (except by the guardrails) or answered below the analysis settings\' `low_confidence_threshold`. A resolved gap hides what was asked up to its resolution.',
      parameters: [query('days', { type: 'integer', minimum: 1, maximum: 365, default: 30 }), ...pageParams],
      responses: { '200': answer('A page', page(ref('ContentGap'), { days: int, low_confidence_threshold: int })), '422': e422 },
    }),
  },
  '/api/admin/kb/content-gaps/{id}/resolve': {
    post: op({
      summary: 'Marks an open gap handled',
      parameters: [gapParam],
      requestBody: { required: false, content: json(obj({ note: nullable({ type: 'string', maxLength: 2000 }) })) },
      responses: {
        '200': answer('Resolved', data(obj({ id: str, question: str, note: nullable(str), resolved_by: nullable(int), resolved_at: dateTime }))),
        '404': e404,
        '422': e422,
      },
    }),
  },
  '/api/admin/kb/wiki-build': {
    post: op({
      summary: 'Builds the concepts and their pages from the indexed documents (deterministic, no model)',
      description:
        'Concepts: section headings shared by at least `min_document_frequency` documents and words of 4+ letters in at least that many documents but not in more than `max_document_share` percent of them (stopwords, numbers and `exclude_terms` skipped), at most `max_concepts`, most documents first. Merged names stay with their concept; deleted concepts are not rebuilt. 409 `autowiki_disabled` when the settings turn it off.',
      responses: {
        '200': answer('Build summary', obj({ documents_considered: int, concepts: int, headings: int, terms: int, pages: int, duration_ms: int })),
        '409': answer('Disabled `{error: "autowiki_disabled", message}`', ref('Error')),
      },
    }),
  },
  '/api/admin/kb/wiki-pages': {
    get: op({ summary: 'Generated concept pages, most documents first', parameters: [...pageParams, searchParam], responses: { '200': answer('A page', page(ref('WikiPage'))), '422': e422 } }),
  },
  '/api/admin/kb/wiki-pages/{id}': {
    get: op({
      summary: 'One concept page with its markdown body',
      parameters: [wikiPageParam],
      responses: { '200': answer('The page', data({ allOf: [ref('WikiPage'), obj({ body: { type: 'string', description: 'Markdown: documents by evidence rank, related concepts' } })] })), '404': e404 },
    }),
  },
  '/api/admin/kb/concepts': {
    get: op({ summary: 'Concepts, most documents first', parameters: [...pageParams, searchParam], responses: { '200': answer('A page', page(ref('Concept'))), '422': e422 } }),
  },
  '/api/admin/kb/concepts/{id}': {
    get: op({
      summary: 'One concept with its documents (and their evidence) and its page',
      parameters: [conceptParam],
      responses: {
        '200': answer(
          'The concept',
          data({
            allOf: [
              ref('Concept'),
              obj({
                documents: { type: 'array', items: obj({ id: int, slug: str, title: str, project_key: str, source_path: str, source_type: str, occurrences: int, evidence: ref('EvidenceLabel') }) },
                page: nullable(obj({ slug: str, title: str })),
              }),
            ],
          }),
        ),
        '404': e404,
      },
    }),
    delete: op({ summary: 'Deletes a concept for good (a rebuild does not bring it back)', parameters: [conceptParam], responses: { '204': answer('Deleted'), '404': e404 } }),
  },
  '/api/admin/kb/concepts/{id}/merge': {
    post: op({
      summary: 'Merges the concept into another: documents and names move to `into`, whose page is rebuilt',
      parameters: [conceptParam],
      requestBody: body(obj({ into: { type: 'integer', minimum: 1 } }, ['into'])),
      responses: { '200': answer('The target concept', data(ref('Concept'))), '404': e404, '422': e422 },
    }),
  },
};

export const ADMIN_KNOWLEDGE_SCHEMAS: Record<string, object> = {
  MetricsOverview: obj({
    documents: int,
    documents_by_status: { type: 'object', additionalProperties: int },
    chunks: int,
    projects: int,
    users: int,
    chats: obj({ last_24h: chatWindow, last_7d: chatWindow, mean_confidence_7d: nullable({ type: 'number' }) }),
    ingest_queue: obj({ waiting: int, active: int, delayed: int, failed: int, paused: int, depth: int, tenant_pending_documents: int }),
    feedback: obj({ should_have_cited: int, not_relevant: int }),
    generated_at: dateTime,
  }),
  KbTreeFolder: obj({
    name: str,
    path: str,
    document_count: int,
    chunk_count: int,
    folders: { type: 'array', items: ref('KbTreeFolder') },
    documents: { type: 'array', items: obj({ id: int, source_path: str, title: str, status: str, chunk_count: int }) },
  }),
  KbTreeProject: obj({
    project_key: str,
    name: str,
    document_count: int,
    chunk_count: int,
    folders: { type: 'array', items: ref('KbTreeFolder') },
    documents: { type: 'array', items: obj({ id: int, source_path: str, title: str, status: str, chunk_count: int }) },
  }),
  EvidenceLabel: obj({ rank: { type: 'integer', minimum: 0, maximum: 100 }, label: nullable(str), matched_by: { enum: ['path_prefix', 'source_type', 'default'] } }),
  AdminDocument: obj({
    id: int,
    project_key: str,
    source_path: str,
    title: str,
    slug: str,
    status: { enum: DOCUMENT_STATUSES },
    source_type: str,
    mime_type: str,
    chunk_count: int,
    tags: { type: 'array', items: str },
    error: nullable(str),
    evidence: ref('EvidenceLabel'),
    indexed_at: nullable(dateTime),
    created_at: dateTime,
    updated_at: dateTime,
  }),
  CollectionInput: obj({
    name: { type: 'string', maxLength: 255 },
    slug: { type: 'string', maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
    description: nullable({ type: 'string', maxLength: 2000 }),
    criteria: { type: 'object' },
  }),
  AdminCollection: obj({ id: int, name: str, slug: str, description: nullable(str), criteria: { type: 'object' }, document_count: int, created_at: dateTime, updated_at: dateTime }),
  SynonymSetInput: obj(
    {
      terms: { type: 'array', minItems: 2, maxItems: 50, items: { type: 'string', maxLength: 64 } },
      project_key: nullable({ type: 'string', maxLength: 120 }),
    },
    ['terms'],
  ),
  SynonymSet: obj({ id: int, project_key: nullable(str), terms: { type: 'array', items: str }, created_at: dateTime, updated_at: dateTime }),
  AnalysisSummary: obj({ id: int, project_key: str, kind: { enum: ANALYSIS_KINDS }, created_by: nullable(int), duration_ms: int, created_at: dateTime }),
  Analysis: {
    allOf: [
      ref('AnalysisSummary'),
      obj({
        result: obj({
          documents: int,
          chunks: int,
          folders: { type: 'array', items: obj({ folder: str, documents: int, chunks: int }) },
          top_terms: { type: 'array', items: obj({ term: str, documents: int, occurrences: int }) },
          orphans: obj({ count: int, documents: { type: 'array', items: obj({ id: int, source_path: str, title: str }) } }),
        }),
      }),
    ],
  },
  AnalysisSettings: {
    type: 'object',
    additionalProperties: false,
    properties: {
      low_confidence_threshold: { type: 'integer', minimum: 0, maximum: 100, default: ANALYSIS_DEFAULTS.low_confidence_threshold },
      stale_after_days: { type: 'integer', minimum: 1, maximum: 3650, default: ANALYSIS_DEFAULTS.stale_after_days },
      stuck_ingest_minutes: { type: 'integer', minimum: 1, maximum: 10080, default: ANALYSIS_DEFAULTS.stuck_ingest_minutes },
      top_terms: { type: 'integer', minimum: 1, maximum: 100, default: ANALYSIS_DEFAULTS.top_terms },
    },
  },
  AutowikiSettings: {
    type: 'object',
    additionalProperties: false,
    properties: {
      enabled: { type: 'boolean', default: AUTOWIKI_DEFAULTS.enabled },
      min_document_frequency: { type: 'integer', minimum: 1, maximum: 10000, default: AUTOWIKI_DEFAULTS.min_document_frequency },
      max_document_share: { type: 'integer', minimum: 1, maximum: 100, default: AUTOWIKI_DEFAULTS.max_document_share, description: 'Percent of documents' },
      max_concepts: { type: 'integer', minimum: 1, maximum: 1000, default: AUTOWIKI_DEFAULTS.max_concepts },
      include_headings: { type: 'boolean', default: AUTOWIKI_DEFAULTS.include_headings },
      include_terms: { type: 'boolean', default: AUTOWIKI_DEFAULTS.include_terms },
      exclude_terms: { type: 'array', maxItems: 500, items: { type: 'string', minLength: 1, maxLength: 100 }, default: AUTOWIKI_DEFAULTS.exclude_terms },
    },
  },
  EvidenceTiers: {
    type: 'object',
    additionalProperties: false,
    properties: {
      default_rank: { type: 'integer', minimum: 0, maximum: 100, default: EVIDENCE_TIER_DEFAULTS.default_rank },
      tiers: {
        type: 'array',
        maxItems: 200,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['rank'],
          properties: {
            source_type: { enum: SOURCE_TYPES },
            path_prefix: { type: 'string', maxLength: 255 },
            rank: { type: 'integer', minimum: 0, maximum: 100 },
            label: { type: 'string', maxLength: 64 },
          },
        },
      },
    },
  },
  ContentGap: obj({
    id: { type: 'string', pattern: '^[0-9a-f]{32}$' },
    question: { type: 'string', description: 'The latest wording' },
    normalized_question: str,
    count: int,
    refusals: int,
    mean_confidence: int,
    last_asked_at: dateTime,
    sample_refusal_reason: nullable(str),
  }),
  Concept: obj({ id: int, key: str, label: str, kind: { enum: ['heading', 'term'] }, aliases: { type: 'array', items: str }, document_count: int, built_at: dateTime }),
  WikiPage: obj({ concept_id: int, slug: str, title: str, document_count: int, built_at: dateTime }),
};
