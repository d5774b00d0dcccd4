import { answer, body, bool, dateTime, int, nullable, obj, ref, str } from '../openapi-parts';

/** The chat, conversation, preset and chat-preference routes' part of kb-api's OpenAPI document (merged in ../openapi.ts). */
const unauthenticated = answer('Guest `{message: "Unauthenticated."}`', ref('Message'));
const forbidden = answer('An integration token without a user, or a tenant refusal `{message}` / `{error}`', ref('Error'));
const invalid = answer('Validation failure `{message, errors: {field: [messages]}}`', ref('ValidationError'));
const missing = answer('Missing, or another user\'s row `{error: "not_found", message}`', ref('Error'));
const userRoute = { '401': unauthenticated, '403': forbidden };
const recordId = (name: string, what: string) => ({ name, in: 'path', required: true, description: `${what} id; anything but a positive integer is a 404`, schema: { type: 'string', pattern: '^[1-9][0-9]{0,17}$' } });
const conversationId = recordId('id', 'Conversation');
const presetId = recordId('id', 'Preset');
const strings = (maxItems: number, maxLength: number) => ({ type: 'array', maxItems, items: { type: 'string', maxLength } });
const conversation = obj({ id: int, title: nullable(str), project_key: nullable(str), created_at: dateTime, updated_at: dateTime });
const preset = obj({ id: int, name: str, filters: ref('ChatFilters'), created_at: dateTime, updated_at: dateTime });

export const CHAT_PATHS: Record<string, object> = {
  '/api/kb/chat': {
    post: {
      summary: 'A grounded answer with citations, or a refusal (confidence 0, refusal_reason set)',
      description:
        '`auth:guard`, `ai.disclosure`, `token.ability:kb:chat`. Every answer carries `X-AI-Disclosure`. With `Accept: text/event-stream` the answer is a stream of `meta`, `delta`, `done` (and `error`) events; failures before `meta` still answer JSON.',
      requestBody: body(ref('ChatRequest')),
      responses: {
        '200': answer('The answer (or a refusal)', ref('ChatAnswer')),
        '401': unauthenticated,
        '403': answer('A token without `kb:chat` `{error: "token_ability_forbidden"}`, or a tenant refusal', ref('Error')),
        '422': invalid,
        '502': answer('The configured model failed `{error: "llm_unavailable"}` (504 on its timeout)', ref('Error')),
      },
    },
  },
  '/api/kb/retrieve': {
    post: {
      summary: 'Ranked chunks for a query without an answer: the chat\'s retrieval, best first, one entry per chunk',
      description:
        '`auth:guard`, `token.ability:kb:read`, tenant-scoped like the chat. The ranking is the one the chat and the MCP search tools use (BM25 over the tenant\'s chunks, fused with vector similarity where an embeddings provider is configured); `filters` is the chat\'s filter object, applied in SQL. At most three chunks of one document.',
      requestBody: body(ref('RetrieveRequest')),
      responses: {
        '200': answer('The ranking', ref('RetrieveAnswer')),
        '401': unauthenticated,
        '403': answer('A token without `kb:read` `{error: "token_ability_forbidden"}`, or a tenant refusal', ref('Error')),
        '422': invalid,
      },
    },
  },
  '/api/kb/chat/anonymous-config': {
    get: {
      summary: 'Whether anonymous chat (`anonymous: true`) is switched on',
      responses: { '200': answer('The setting', obj({ enabled: bool }, ['enabled'])), ...userRoute },
    },
  },
  '/api/conversations': {
    get: {
      summary: 'The caller\'s conversations in the active tenant, newest first',
      responses: { '200': answer('Conversations', { type: 'array', items: conversation }), ...userRoute },
    },
    post: {
      summary: 'Starts a conversation (title null)',
      requestBody: body(obj({ project_key: { type: 'string', minLength: 1, maxLength: 120 } }), false),
      responses: { '201': answer('Created', conversation), '422': invalid, ...userRoute },
    },
  },
  '/api/conversations/{id}': {
    patch: {
      summary: 'Renames a conversation',
      parameters: [conversationId],
      requestBody: body(obj({ title: { type: 'string', minLength: 1, maxLength: 255 } }, ['title'])),
      responses: { '200': answer('The conversation', conversation), '404': missing, '422': invalid, ...userRoute },
    },
    delete: {
      summary: 'Deletes a conversation and its messages',
      parameters: [conversationId],
      responses: { '204': answer('Deleted'), '404': missing, ...userRoute },
    },
  },
  '/api/conversations/{id}/messages': {
    get: {
      summary: 'The conversation\'s messages in order',
      parameters: [conversationId],
      responses: {
        '200': answer('Messages', { type: 'array', items: ref('ConversationMessage') }),
        '404': missing,
        ...userRoute,
      },
    },
    post: {
      summary: 'Asks a question in the conversation (the chat of POST /api/kb/chat, scoped to its project)',
      parameters: [conversationId],
      requestBody: body(obj({ content: { type: 'string', minLength: 1, maxLength: 10000 }, filters: ref('ChatFilters') }, ['content'])),
      responses: {
        '201': answer('The assistant message plus `confidence` and `refusal_reason`; header X-AI-Disclosure', ref('ConversationMessage')),
        '404': missing,
        '422': invalid,
        '502': answer('The configured model failed `{error: "llm_unavailable"}` (504 on its timeout); nothing is stored', ref('Error')),
        ...userRoute,
      },
    },
  },
  '/api/conversations/{id}/messages/{message}/feedback': {
    post: {
      summary: 'Rates an assistant message; the same rating again clears it',
      parameters: [conversationId, recordId('message', 'Message')],
      requestBody: body(obj({ rating: { enum: ['positive', 'negative'] } }, ['rating'])),
      responses: {
        '200': answer('The rating', obj({ rating: nullable({ enum: ['positive', 'negative'] }) })),
        '404': missing,
        '422': answer('Invalid body, or a user message', ref('ValidationError')),
        ...userRoute,
      },
    },
  },
  '/api/conversations/{id}/generate-title': {
    post: {
      summary: 'Titles the conversation after its first question (at most 80 characters)',
      parameters: [conversationId],
      responses: {
        '200': answer('The title', obj({ title: str }, ['title'])),
        '404': missing,
        '422': answer('No question asked yet', ref('ValidationError')),
        ...userRoute,
      },
    },
  },
  '/api/chat-filter-presets': {
    get: {
      summary: 'The caller\'s chat-filter presets, by name',
      responses: { '200': answer('Presets', obj({ data: { type: 'array', items: preset } }, ['data'])), ...userRoute },
    },
    post: {
      summary: 'Saves a named set of chat filters',
      requestBody: body(ref('ChatFilterPreset')),
      responses: { '201': answer('Created', obj({ data: preset }, ['data'])), '422': answer('Invalid body, or `errors.name` when the name is taken', ref('ValidationError')), ...userRoute },
    },
  },
  '/api/chat-filter-presets/{id}': {
    get: {
      summary: 'One preset',
      parameters: [presetId],
      responses: { '200': answer('The preset', obj({ data: preset }, ['data'])), '404': missing, ...userRoute },
    },
    put: {
      summary: 'Replaces a preset',
      parameters: [presetId],
      requestBody: body(ref('ChatFilterPreset')),
      responses: { '200': answer('The preset', obj({ data: preset }, ['data'])), '404': missing, '422': invalid, ...userRoute },
    },
    delete: {
      summary: 'Deletes a preset',
      parameters: [presetId],
      responses: { '204': answer('Deleted'), '404': missing, ...userRoute },
    },
  },
  '/api/me/chat-preferences': {
    get: {
      summary: 'The caller\'s chat preferences and their defaults',
      responses: {
        '200': answer('Preferences', obj({ preferences: { type: 'object', additionalProperties: bool }, defaults: obj({ counterfactual_enabled: bool }) })),
        ...userRoute,
      },
    },
    patch: {
      summary: 'Merges preferences; null removes a key',
      requestBody: body(
        obj(
          {
            preferences: {
              type: 'object',
              maxProperties: 50,
              propertyNames: { pattern: '^[a-z0-9_]{1,64}$' },
              additionalProperties: nullable(bool),
            },
          },
          ['preferences'],
        ),
      ),
      responses: {
        '200': answer('The merged preferences', obj({ preferences: { type: 'object', additionalProperties: bool }, defaults: { type: 'object' } })),
        '422': answer('A bad key or value rejects the whole patch', ref('ValidationError')),
        ...userRoute,
      },
    },
  },
};

export const CHAT_SCHEMAS: Record<string, object> = {
  ChatFilters: obj({
    project_keys: strings(50, 120),
    tag_slugs: strings(50, 120),
    source_types: strings(20, 40),
    canonical_types: strings(20, 40),
    connector_types: strings(20, 40),
    doc_ids: { type: 'array', maxItems: 1000, items: { type: 'integer', minimum: 1 } },
    collection_id: { type: 'integer', minimum: 1 },
    folder_globs: strings(20, 500),
    date_from: { type: 'string', format: 'date-time', description: 'Strict ISO 8601' },
    date_to: { type: 'string', format: 'date-time', description: 'Strict ISO 8601, not before date_from' },
  }),
  ChatRequest: obj(
    {
      question: { type: 'string', minLength: 1, maxLength: 10000 },
      anonymous: { type: 'boolean', description: 'Only while anonymous chat is switched on (422 otherwise)' },
      project_key: { type: 'string', maxLength: 120, description: 'Legacy project scope; filters.project_keys wins' },
      filters: ref('ChatFilters'),
    },
    ['question'],
  ),
  RetrieveRequest: obj(
    {
      query: { type: 'string', minLength: 1, maxLength: 10000 },
      filters: ref('ChatFilters'),
      top_k: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    },
    ['query'],
  ),
  RetrieveAnswer: obj(
    {
      data: {
        type: 'array',
        items: obj(
          {
            document_id: int,
            chunk_id: int,
            source_path: str,
            title: str,
            project_key: str,
            score: { type: 'number', description: 'Relevance in 0..1; the order is the ranking' },
            snippet: { type: 'string', maxLength: 240 },
          },
          ['document_id', 'chunk_id', 'source_path', 'title', 'project_key', 'score', 'snippet'],
        ),
      },
      meta: obj(
        {
          total_candidates: { type: 'integer', description: 'Chunks scored before the cut at top_k' },
          latency_ms: int,
          retrievers: { type: 'array', items: { enum: ['lexical', 'vector'] } },
        },
        ['total_candidates', 'latency_ms', 'retrievers'],
      ),
    },
    ['data', 'meta'],
  ),
  ChatAnswer: obj(
    {
      answer: str,
      citations: {
        type: 'array',
        items: obj({
          document_id: int,
          title: str,
          source_path: str,
          slug: str,
          project_key: str,
          source_type: str,
          headings: { type: 'array', items: str },
          chunks_used: int,
          origin: { const: 'primary' },
          chunks: { type: 'array', items: obj({ chunk_id: int, heading: nullable(str), score: { type: 'number' }, snippet: str, evidence_hash: str }) },
        }),
      },
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      refusal_reason: nullable(str),
      meta: obj({
        provider: str,
        model: nullable(str),
        chunks_used: int,
        primary_count: int,
        latency_ms: int,
        latency_ms_breakdown: { type: 'object' },
        filters_selected: { type: 'object' },
      }),
    },
    ['answer', 'citations', 'confidence', 'refusal_reason', 'meta'],
  ),
  ConversationMessage: obj({
    id: int,
    role: { enum: ['user', 'assistant'] },
    content: str,
    metadata: { type: 'object' },
    rating: nullable({ enum: ['positive', 'negative'] }),
    created_at: dateTime,
    confidence: { type: 'number' },
    refusal_reason: nullable(str),
  }),
  ChatFilterPreset: obj({ name: { type: 'string', minLength: 1, maxLength: 120 }, filters: ref('ChatFilters') }, ['name', 'filters']),
};
