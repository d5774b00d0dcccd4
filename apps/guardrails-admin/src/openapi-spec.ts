import type { OpenApiSpec } from '@platform/runtime';

/** What guardrails-admin's generated OpenAPI document says beyond its controllers and DTOs. */
export const OPENAPI_SPEC: OpenApiSpec = {
  title: 'guardrails-admin API',
  version: '1.0.0',
  description: 'guardrails-admin',
};

/** The env under which the committed document is generated: every optional area on. */
export const OPENAPI_ENV: Record<string, string> = { GUARDRAILS_API_ENABLED: 'true' };
