import { CANONICAL_STATUSES, CANONICAL_TYPES } from './canonical-types';
import { MAX_SUGGESTIONS } from './candidate-suggester';
import { answer, json, ref, str } from '../openapi-parts';

/** The promotion routes' part of kb-api's OpenAPI document (merged in ../openapi.ts). */
const slugList = { type: 'array', items: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' } };
const uuid = { type: 'string', format: 'uuid' };

const unauthenticated = answer('Guest `{message: "Unauthenticated."}`', ref('Message'));
const invalid = answer('Validation failure `{message, errors}`', ref('ValidationError'));
const disabled = answer('Promotion is switched off (`KB_PROMOTION_ENABLED`) `{error: "promotion_disabled", message}`', ref('Error'));
const approvalParam = { name: 'approvalId', in: 'path', required: true, description: 'The approval id from the promote answer', schema: str };
const tokenQuery = { name: 'token', in: 'query', required: false, description: 'The approval token, when not sent in the body', schema: str };
const decisionRefused = {
  '401': unauthenticated,
  '403': answer(
    'Without `kb.promote.any` `{message}`; a wrong, spent or expired token, an unknown id, another tenant\'s run or a run already decided `{error: "forbidden", message}`',
    ref('Error'),
  ),
  '422': answer('No token in the body or the query `{message, errors: {token}}`', ref('ValidationError')),
  '503': disabled,
};

export const PROMOTION_PATHS = {
  '/api/kb/promotion/suggest': {
    post: {
      summary: 'Proposes knowledge-base documents from a transcript with the configured model; writes nothing',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['transcript'],
          properties: {
            transcript: { type: 'string', minLength: 1, maxLength: 50000 },
            project_key: { type: 'string', maxLength: 120 },
            existing_slugs: { type: 'array', items: { type: 'string', maxLength: 200 }, maxItems: 1000, description: 'Slugs never proposed' },
          },
        }),
      },
      responses: {
        '200': answer('Well-formed new candidates only', {
          type: 'object',
          required: ['candidates'],
          properties: { candidates: { type: 'array', maxItems: MAX_SUGGESTIONS, items: ref('PromotionCandidate') } },
        }),
        '401': unauthenticated,
        '422': invalid,
        '502': answer('The model failed `{error: "llm_unavailable"}` (504 on its timeout)', ref('Error')),
        '503': answer('Promotion switched off `promotion_disabled`, or no model configured `llm_not_configured`', ref('Error')),
      },
    },
  },
  '/api/kb/promotion/candidates': {
    post: {
      summary: 'Checks a markdown draft and its frontmatter; writes nothing and works while promotion is off',
      requestBody: { required: true, content: json({ type: 'object', required: ['markdown'], properties: { markdown: { type: 'string', minLength: 1, maxLength: 200000 } } }) },
      responses: {
        '200': answer('Valid', { type: 'object', required: ['valid', 'parsed'], properties: { valid: { const: true }, parsed: ref('ParsedDraft') } }),
        '401': unauthenticated,
        '422': answer('Invalid draft `{valid: false, errors}` keyed by field; a body over the limit answers the validation shape', {
          oneOf: [
            { type: 'object', required: ['valid', 'errors'], properties: { valid: { const: false }, errors: ref('FieldErrors') } },
            ref('ValidationError'),
          ],
        }),
      },
    },
  },
  '/api/kb/promotion/promote': {
    post: {
      summary: 'Validates a draft and pauses it at the human approval gate; nothing is written until approval',
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['project_key', 'markdown'],
          properties: {
            project_key: { type: 'string', minLength: 1, maxLength: 120 },
            markdown: { type: 'string', minLength: 1, maxLength: 200000 },
            title: { type: 'string', maxLength: 255, description: 'Default: the frontmatter title, else the first heading, else the slug' },
          },
        }),
      },
      responses: {
        '202': answer('Paused; the token appears only here', ref('PausedPromotion')),
        '401': unauthenticated,
        '422': answer('`{error: "no_frontmatter" | "invalid_frontmatter", message, errors}`, or the validation shape for the body', {
          oneOf: [{ type: 'object', required: ['error', 'message', 'errors'], properties: { error: { enum: ['no_frontmatter', 'invalid_frontmatter'] }, message: str, errors: ref('FieldErrors') } }, ref('ValidationError')],
        }),
        '503': disabled,
      },
    },
  },
  '/api/kb/promotion/{approvalId}/approve': {
    post: {
      summary: 'A human with kb.promote.any approves: writes canonical storage and dispatches one IngestDocumentJob, exactly once',
      parameters: [approvalParam, tokenQuery],
      requestBody: { required: false, content: json({ type: 'object', properties: { token: str, actor: { type: 'string', maxLength: 255, description: 'Name recorded in the audit' } } }) },
      responses: {
        '200': answer('Written and dispatched', {
          type: 'object',
          properties: { status: { const: 'accepted' }, flow_run_id: uuid, approval_id: uuid, path: str, document_id: { type: 'integer' } },
        }),
        '202': answer('Claimed, but the storage write failed', {
          type: 'object',
          properties: { status: { const: 'failed' }, flow_run_id: uuid, approval_id: uuid, failed_step: { const: 'write_canonical' } },
        }),
        ...decisionRefused,
      },
    },
  },
  '/api/kb/promotion/{approvalId}/reject': {
    post: {
      summary: 'A human with kb.promote.any rejects: the paused run and its draft are dropped',
      parameters: [approvalParam, tokenQuery],
      requestBody: {
        required: false,
        content: json({ type: 'object', properties: { token: str, actor: { type: 'string', maxLength: 255 }, reason: { type: 'string', maxLength: 500 } } }),
      },
      responses: {
        '200': answer('Discarded', { type: 'object', properties: { status: { const: 'rejected' }, flow_run_id: uuid, approval_id: uuid } }),
        ...decisionRefused,
      },
    },
  },
};

export const PROMOTION_SCHEMAS = {
  FieldErrors: { type: 'object', additionalProperties: { type: 'array', items: str } },
  PromotionCandidate: {
    type: 'object',
    properties: {
      type: { enum: CANONICAL_TYPES },
      slug_proposal: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
      title_proposal: { type: 'string', maxLength: 200 },
      reason: { type: 'string', maxLength: 500 },
      related: slugList,
    },
  },
  ParsedDraft: {
    type: 'object',
    properties: {
      doc_id: { type: ['string', 'null'] },
      slug: str,
      type: { enum: CANONICAL_TYPES },
      status: { enum: CANONICAL_STATUSES },
      title_line: { type: ['string', 'null'] },
      retrieval_priority: { type: 'integer', minimum: 0, maximum: 100 },
      related_slugs: slugList,
      supersedes_slugs: slugList,
      superseded_by_slugs: slugList,
      tags: { type: 'array', items: str },
      owners: { type: 'array', items: str },
      summary: { type: ['string', 'null'] },
    },
  },
  PausedPromotion: {
    type: 'object',
    properties: {
      status: { const: 'paused' },
      flow_run_id: uuid,
      doc_id: { type: ['string', 'null'] },
      slug: str,
      path: { type: 'string', description: '`<folder by type>/<slug>.md` in the project' },
      approval: {
        type: 'object',
        properties: {
          approval_id: uuid,
          token: { type: 'string', description: 'Single use; only its hash is stored' },
          expires_at: { type: 'string', format: 'date-time' },
          approve_url: { type: 'string', format: 'uri' },
          reject_url: { type: 'string', format: 'uri' },
          approve_path: str,
          reject_path: str,
        },
      },
    },
  },
};
