import type { OpenApiSpec } from '@platform/runtime';

/** What iam's generated OpenAPI document says beyond its controllers and DTOs. */
export const OPENAPI_SPEC: OpenApiSpec = {
  title: 'iam API',
  version: '1.0.0',
  description: 'iam',
};

/** The env under which the committed document is generated: every optional area on. */
export const OPENAPI_ENV: Record<string, string> = {};
