/** OpenAPI paths and schemas of KbWidgetModule, merged into the kb-api document by ../openapi.ts. */
export const WIDGET_PATHS: Record<string, object> = {};
export const WIDGET_SCHEMAS: Record<string, object> = {};
