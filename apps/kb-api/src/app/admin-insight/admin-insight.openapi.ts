/** OpenAPI paths and schemas of KbAdminInsightModule, merged into the kb-api document by ../openapi.ts. */
export const ADMIN_INSIGHT_PATHS: Record<string, object> = {};
export const ADMIN_INSIGHT_SCHEMAS: Record<string, object> = {};
