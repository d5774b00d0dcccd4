/** OpenAPI 3.1 description of the evidence review API; served and committed as docs/api/evidence-review.openapi.json. */
const error = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string', examples: ['validation_error', 'unknown_profile', 'unknown_review', 'payload_too_large', 'llm_unavailable'] },
        message: { type: 'string' },
        details: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
      },
    },
  },
};
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const common = {
  '401': errorResponse('No or invalid bearer token'),
  '403': errorResponse('The token lacks evidence:review'),
};
const verdict = { type: 'string', enum: ['keep', 'soften', 'flag_for_human_review', 'remove'] };

export const EVIDENCE_OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'Evidence risk review API',
    version: '1.0.0',
    description: 'Reviews an artifact as claims backed by cited sources. Routes exist only when api.enabled (EVIDENCE_API_ENABLED) is true.',
  },
  servers: [{ url: '/evidence-risk-review' }],
  security: [{ bearer: [] }],
  paths: {
    '/reviews': {
      post: {
        summary: 'Review an artifact',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/ReviewRequest' } } } },
        responses: {
          '201': { description: 'The review result', content: { 'application/json': { schema: { $ref: '#/components/schemas/ReviewResult' } } } },
          '400': errorResponse('Malformed JSON'),
          ...common,
          '404': errorResponse('Unknown profile'),
          '413': errorResponse('Body over EVIDENCE_MAX_BODY_BYTES'),
          '422': errorResponse('Validation failed; details name each field'),
          '503': errorResponse('The language model is unavailable'),
        },
      },
      get: {
        summary: "The caller tenant's review log, newest first",
        parameters: [
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
          { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          { name: 'profile', in: 'query', schema: { type: 'string' } },
          { name: 'artifact_id', in: 'query', schema: { type: 'string' } },
          { name: 'min_verdict', in: 'query', schema: verdict },
        ],
        responses: { '200': { description: 'A page of log entries', content: { 'application/json': { schema: { $ref: '#/components/schemas/ReviewPage' } } } }, ...common },
      },
    },
    '/reviews/{review_id}': {
      get: {
        summary: 'A stored review result, byte for byte',
        parameters: [{ name: 'review_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'The stored result', content: { 'application/json': { schema: { $ref: '#/components/schemas/ReviewResult' } } } }, ...common, '404': errorResponse('Unknown review') },
      },
    },
    '/profiles': { get: { summary: 'Risk profiles by key', responses: { '200': { description: '{ profiles: { key: summary } }' }, ...common } } },
    '/profiles/{key}': {
      get: {
        summary: 'One risk profile with its checks',
        parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: '{ profile }' }, ...common, '404': errorResponse('Unknown profile') },
      },
    },
    '/taxonomy': { get: { summary: 'Tiers, checks, verdicts and assertiveness values', responses: { '200': { description: 'The taxonomy' }, ...common } } },
    '/mcp': {
      post: {
        summary: 'MCP over streamable HTTP (tools assess, label_tier, list_profiles)',
        description:
          'Bearer, or DPoP with a proof for a DPoP-bound token; the token\'s aud must name OAUTH_RESOURCE (or JWT_AUDIENCE). 401/403 carry WWW-Authenticate with resource_metadata.',
        responses: { '200': { description: 'JSON-RPC response' }, ...common },
      },
    },
    '/.well-known/oauth-protected-resource/evidence-risk-review/mcp': {
      servers: [{ url: '/' }],
      get: {
        summary: 'RFC 9728 metadata of the MCP server: iam as authorization server, scope evidence:review, the resource identifier (OAUTH_RESOURCE)',
        security: [],
        responses: {
          '200': {
            description: 'Protected resource metadata; Cache-Control: public, max-age=300',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ProtectedResourceMetadata' } } },
          },
        },
      },
    },
    '/openapi.json': { get: { summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1' } } } },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'iam access token (ES256) with scope evidence:review' } },
    schemas: {
      Error: error,
      ProtectedResourceMetadata: {
        type: 'object',
        required: ['resource', 'authorization_servers', 'scopes_supported', 'bearer_methods_supported'],
        properties: {
          resource: { type: 'string', format: 'uri' },
          authorization_servers: { type: 'array', items: { type: 'string', format: 'uri' } },
          scopes_supported: { type: 'array', items: { type: 'string' } },
          bearer_methods_supported: { type: 'array', items: { type: 'string', enum: ['header'] } },
          resource_name: { type: 'string' },
          dpop_signing_alg_values_supported: { type: 'array', items: { type: 'string' } },
          dpop_bound_access_tokens_required: { type: 'boolean' },
        },
      },
      Claim: {
        type: 'object',
        required: ['id', 'text'],
        properties: {
          id: { type: 'string', minLength: 1 },
          text: { type: 'string', minLength: 1 },
          assertiveness: { type: 'string', enum: ['definitive', 'likely', 'tentative'], default: 'likely' },
          source_ids: { type: 'array', items: { type: 'string', minLength: 1 } },
          metadata: { type: 'object' },
        },
      },
      Source: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string', minLength: 1 },
          url: { type: ['string', 'null'] },
          title: { type: ['string', 'null'] },
          snippet: { type: ['string', 'null'] },
          declared_tier: { type: ['string', 'null'] },
          metadata: { type: 'object' },
        },
      },
      ReviewRequest: {
        type: 'object',
        required: ['artifact'],
        properties: {
          artifact: {
            type: 'object',
            required: ['artifact_id', 'answer_text'],
            properties: {
              artifact_id: { type: 'string', minLength: 1 },
              answer_text: { type: 'string', minLength: 1 },
              question: { type: ['string', 'null'] },
              tenant_id: { type: ['string', 'null'] },
              claims: { type: 'array', items: { $ref: '#/components/schemas/Claim' } },
              sources: { type: 'array', items: { $ref: '#/components/schemas/Source' } },
              metadata: { type: 'object' },
            },
          },
          options: {
            type: 'object',
            properties: {
              profile_key: { type: 'string', default: 'default' },
              dry_run: { type: 'boolean', default: false },
              label_via_llm: { type: 'boolean', default: false },
              reviewed_at: { type: 'string', format: 'date-time', description: 'Replay: review as of this instant' },
              budget: {
                type: ['object', 'null'],
                properties: {
                  max_llm_calls: { type: 'integer', minimum: 0 },
                  max_tokens: { type: 'integer', minimum: 0 },
                  max_heavy_checks: { type: 'integer', minimum: 0 },
                  max_wall_seconds: { type: 'integer', minimum: 0 },
                },
              },
            },
          },
        },
      },
      Tier: {
        type: 'object',
        required: ['key', 'rank', 'label', 'builtin'],
        properties: { key: { type: 'string' }, rank: { type: 'integer', minimum: 0, maximum: 100 }, label: { type: 'string' }, builtin: { type: 'boolean' } },
      },
      Finding: {
        type: 'object',
        properties: {
          check_kind: { type: 'string' },
          claim_id: { type: ['string', 'null'] },
          verdict,
          reason: { type: 'string' },
          suggested_rewrite: { type: ['string', 'null'] },
          confidence: { type: 'number' },
          cost_class: { type: 'string', enum: ['cheap', 'heavy', 'skipped_over_budget'] },
          evidence: { type: 'object' },
        },
      },
      ReviewResult: {
        type: 'object',
        properties: {
          review_id: { type: 'string', pattern: '^rev_[0-9a-f]{32}$' },
          artifact_id: { type: 'string' },
          profile_key: { type: 'string' },
          verdict,
          findings: { type: 'array', items: { $ref: '#/components/schemas/Finding' } },
          claim_verdicts: { type: 'object', additionalProperties: verdict },
          claim_gaps: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
          source_tiers: { type: 'object', additionalProperties: { $ref: '#/components/schemas/Tier' }, description: 'Source id → its tier as /taxonomy lists it' },
          risk_score: { type: 'number', minimum: 0, maximum: 1 },
          budget: { type: 'object' },
          reviewed_at: { type: 'string', format: 'date-time' },
          metadata: { type: 'object' },
        },
      },
      ReviewPage: {
        type: 'object',
        properties: {
          data: { type: 'array', items: { type: 'object' } },
          current_page: { type: 'integer' },
          last_page: { type: 'integer' },
          per_page: { type: 'integer' },
          total: { type: 'integer' },
        },
      },
    },
  },
} as const;
