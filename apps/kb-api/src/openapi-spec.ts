import type { OpenApiSpec } from '@platform/runtime';

/** What kb-api's generated OpenAPI document says beyond its controllers and DTOs. */
export const OPENAPI_SPEC: OpenApiSpec = {
  title: 'Knowledge base API',
  version: '1.0.0',
  description:
    'Multi-tenant knowledge base: chat, documents, ingest, retrieval, conversations, presets, preferences, accounts, admin, widget, MCP, promotion and notifications. Tenant-scoped routes act in the active tenant (X-Tenant-Id, default the caller\'s home tenant); another tenant\'s row answers 404.',
  securitySchemes: {
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: 'kb_session',
      description: 'Set by POST /api/auth/login; unsafe methods also need X-XSRF-TOKEN = the XSRF-TOKEN cookie',
    },
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'A personal access token (kbp_…) from POST /api/auth/token, or an iam access token for integrations',
    },
  },
  defaultSecurity: ['session', 'bearer'],
};

/** The env under which the committed document is generated: every optional area on. */
export const OPENAPI_ENV: Record<string, string> = { KB_PROMOTION_ENABLED: 'true', KB_ANONYMOUS_CHAT_ENABLED: 'true' };
