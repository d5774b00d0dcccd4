/** OpenAPI paths and schemas of KbAdminOperationsModule, merged into the kb-api document by ../openapi.ts. */
export const ADMIN_OPERATIONS_PATHS: Record<string, object> = {};
export const ADMIN_OPERATIONS_SCHEMAS: Record<string, object> = {};
