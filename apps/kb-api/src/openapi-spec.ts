import type { OpenApiSpec } from '@platform/runtime';

/** What kb-api's generated OpenAPI document says beyond its controllers and DTOs. */
export const OPENAPI_SPEC: OpenApiSpec = {
  title: 'kb-api API',
  version: '1.0.0',
  description: 'kb-api',
};

/** The env under which the committed document is generated: every optional area on. */
export const OPENAPI_ENV: Record<string, string> = {};
