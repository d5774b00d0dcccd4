import { answer, body, bool, int, nullable, obj, query, ref, str } from '../openapi-parts';

/** The document, link, feedback and ingest routes' part of kb-api's OpenAPI document (merged in ../openapi.ts). */
const unauthenticated = answer('Guest `{message: "Unauthenticated."}`', ref('Message'));
const forbidden = answer('A tenant refusal `{error}`', ref('Error'));
/** Ownership within the tenant: the whole batch is refused before anything is written. */
const documentForbidden = (change: string, permission: string) =>
  answer(
    `\`{error: "document_forbidden", message}\` when the batch would ${change} and the caller lacks ${permission}; the message names the documents and nothing is written. Or a tenant refusal \`{error}\``,
    ref('Error'),
  );
const readGate = answer('A token without `kb:read` `{error: "token_ability_forbidden"}`, or a tenant refusal', ref('Error'));
const invalid = answer('Validation failure `{message, errors: {field: [messages]}}`', ref('ValidationError'));
const missing = answer('Missing, deleted, or another tenant\'s document `{error: "not_found", message}`', ref('Error'));
/** List parameters take `name[]=a&name[]=b`; a single `name=a` also works. */
const list = (name: string, maxItems: number, maxLength: number, required = false) => ({
  name: `${name}[]`,
  in: 'query',
  required,
  style: 'form',
  explode: true,
  schema: { type: 'array', maxItems, items: { type: 'string', maxLength } },
});
const documentRef = obj({ project_key: { type: 'string', maxLength: 120 }, source_path: { type: 'string', minLength: 1, maxLength: 500 } }, ['source_path']);
const documentFacts = { title: str, source_path: str, canonical_type: nullable(str), canonical_status: nullable(str), is_canonical: bool };

export const DOCUMENT_PATHS: Record<string, object> = {
  '/api/kb/documents/search': {
    get: {
      summary: 'Finds documents by title and path (at most 20)',
      description: '`token.ability:kb:read`.',
      parameters: [query('q', { type: 'string', minLength: 2, maxLength: 120 }, 'Search text, 2–120 characters once trimmed'), list('project_keys', 50, 120)],
      responses: {
        '200': answer('Matches', obj({ data: { type: 'array', items: obj({ id: int, project_key: str, title: str, source_path: str, source_type: str, canonical_type: nullable(str) }) } }, ['data'])),
        '401': unauthenticated,
        '403': readGate,
        '422': invalid,
      },
    },
  },
  '/api/kb/documents/{documentId}/preview': {
    get: {
      summary: 'A document\'s source for preview',
      description: '`token.ability:kb:read`.',
      parameters: [{ name: 'documentId', in: 'path', required: true, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } }],
      responses: {
        '200': answer('The document', obj({ document_id: int, slug: str, project_key: str, source_type: str, content: str, ...documentFacts })),
        '401': unauthenticated,
        '403': readGate,
        '404': missing,
      },
    },
  },
  '/api/kb/documents': {
    delete: {
      summary: 'Deletes documents by path (marked deleted, or removed with their file when `force`)',
      requestBody: body(obj({ documents: { type: 'array', minItems: 1, maxItems: 100, items: documentRef }, force: bool }, ['documents'])),
      responses: {
        '200': answer('What was deleted and what was missing', obj({ deleted: int, missing: int, documents: { type: 'array', items: { type: 'object' } } })),
        '401': unauthenticated,
        '403': documentForbidden('delete a document someone else ingested or nobody owns (a live one; with `force` also one deleted earlier)', 'kb.delete.any'),
        '422': invalid,
      },
    },
  },
  '/api/kb/resolve-wikilink': {
    get: {
      summary: 'What a `[[slug]]` reference points at',
      parameters: [query('project', { type: 'string', minLength: 1, maxLength: 120 }), query('slug', { type: 'string', minLength: 1, maxLength: 200 })].map((p) => ({ ...p, required: true })),
      responses: {
        '200': answer('The target', obj({ document_id: int, preview: str, ...documentFacts })),
        '401': unauthenticated,
        '403': forbidden,
        '404': answer('`Wikilink target not found.`', ref('Error')),
        '422': invalid,
      },
    },
  },
  '/api/kb/related': {
    get: {
      summary: 'Graph neighbours of documents (outgoing and incoming links)',
      parameters: [query('project_key', { type: 'string', maxLength: 120 }), list('slugs', 50, 200, true)],
      responses: {
        '200': answer('Neighbours', obj({ related: { type: 'array', items: obj({ slug: str, title: str, direction: { enum: ['outgoing', 'incoming'] } }) }, meta: obj({ count: int }) })),
        '401': unauthenticated,
        '403': forbidden,
        '422': invalid,
      },
    },
  },
  '/api/kb/collections': {
    get: {
      summary: 'The collection picker of the chat filters, by name',
      responses: { '200': answer('Collections', obj({ data: { type: 'array', items: obj({ id: int, name: str }) } }, ['data'])), '401': unauthenticated, '403': forbidden },
    },
  },
  '/api/kb/feedback': {
    post: {
      summary: 'Feedback on a cited chunk (a user, not an iam service token)',
      requestBody: body(obj({ chunk_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER }, signal: { enum: ['should_have_cited', 'not_relevant'] } }, ['chunk_id', 'signal'])),
      responses: {
        '200': answer('Recorded', obj({ chunk_id: int, signal: str })),
        '401': unauthenticated,
        '403': answer('An integration token without a user, or a tenant refusal', ref('Error')),
        '404': answer('No such chunk in the tenant', ref('Error')),
        '422': invalid,
      },
    },
  },
  '/api/kb/ingest': {
    post: {
      summary: 'Batch ingestion: each document is stored and queued for indexing',
      requestBody: body(obj({ documents: { type: 'array', minItems: 1, maxItems: 100, items: ref('IngestDocument') } }, ['documents'])),
      responses: {
        '202': answer('Every document queued', ref('IngestResult')),
        '207': answer('Some writes failed, or another user took a new path first at the same moment (each entry says which)', ref('IngestResult')),
        '401': unauthenticated,
        '403': documentForbidden('overwrite a live document someone else ingested or nobody owns', 'kb.edit.any'),
        '413': answer('Body over the ingest limit', ref('Error')),
        '422': invalid,
      },
    },
  },
};

export const DOCUMENT_SCHEMAS: Record<string, object> = {
  IngestDocument: obj(
    {
      project_key: { type: 'string', maxLength: 120, description: 'Default: KB_INGEST_DEFAULT_PROJECT' },
      source_path: { type: 'string', minLength: 1, maxLength: 500 },
      title: { type: 'string', maxLength: 255 },
      mime_type: { type: 'string', maxLength: 255, default: 'text/markdown' },
      content: { type: 'string', minLength: 1, maxLength: 7000000, description: 'Text, or base64 for binary formats (PDF, DOCX)' },
      metadata: { type: 'object' },
    },
    ['source_path', 'content'],
  ),
  IngestResult: obj(
    {
      queued: int,
      failed: int,
      documents: { type: 'array', items: obj({ source_path: str, status: { enum: ['queued', 'failed'] }, error: str }, ['source_path', 'status']) },
    },
    ['queued', 'failed', 'documents'],
  ),
};
