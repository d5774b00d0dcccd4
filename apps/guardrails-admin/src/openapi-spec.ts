import type { OpenApiSpec } from '@platform/runtime';

/** What guardrails-admin's generated OpenAPI document says beyond its controllers and DTOs. */
export const OPENAPI_SPEC: OpenApiSpec = {
  title: 'Guardrails admin API',
  version: '1.1.0',
  description:
    'Read and configuration API for an admin panel over the guardrails library. Mounted under api.prefix (GUARDRAILS_API_PREFIX, default guardrails/api) only when api.enabled (GUARDRAILS_API_ENABLED) is true; every route passes the host middleware of api.middleware. Every answer, errors included, is an envelope { schema_version, schema, data }.',
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An iam access token with guardrails:admin' } },
  defaultSecurity: ['bearer'],
};

/** The env under which the committed document is generated: every optional area on. */
export const OPENAPI_ENV: Record<string, string> = { GUARDRAILS_API_ENABLED: 'true' };
