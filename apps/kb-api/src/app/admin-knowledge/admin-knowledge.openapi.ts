/** OpenAPI paths and schemas of KbAdminKnowledgeModule, merged into the kb-api document by ../openapi.ts. */
export const ADMIN_KNOWLEDGE_PATHS: Record<string, object> = {};
export const ADMIN_KNOWLEDGE_SCHEMAS: Record<string, object> = {};
