import type { OpenApiSpec } from '@platform/runtime';

/** What evidence-review's generated OpenAPI document says beyond its controllers and DTOs. */
export const OPENAPI_SPEC: OpenApiSpec = {
  title: 'Evidence risk review API',
  version: '1.0.0',
  description:
    'Reviews an artifact as claims backed by cited sources. The routes exist only when api.enabled (EVIDENCE_API_ENABLED) is true.',
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An iam access token with the evidence:review scope' } },
  defaultSecurity: ['bearer'],
};

/** The env under which the committed document is generated: every optional area on. */
export const OPENAPI_ENV: Record<string, string> = { EVIDENCE_API_ENABLED: 'true' };
