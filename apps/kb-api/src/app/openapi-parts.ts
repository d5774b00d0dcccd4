import { MAX_PER_PAGE } from './admin/pagination';

/** Building blocks of kb-api's OpenAPI document, shared by ./openapi.ts and every area's fragment. */
export const json = (schema: object) => ({ 'application/json': { schema } });
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const body = (schema: object, required = true) => ({ required, content: json(schema) });
export const answer = (description: string, schema?: object) => (schema ? { description, content: json(schema) } : { description });
export const data = (schema: object) => ({ type: 'object', required: ['data'], properties: { data: schema } });
/** A page of an admin list (`?page=&per_page=`), with any extra top-level fields. */
export const page = (item: object, extra: Record<string, object> = {}) => ({
  type: 'object',
  required: ['data', 'current_page', 'per_page', 'total', 'last_page'],
  properties: {
    data: { type: 'array', items: item },
    current_page: { type: 'integer', minimum: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE },
    total: { type: 'integer', minimum: 0 },
    last_page: { type: 'integer', minimum: 1 },
    ...extra,
  },
});
export const str = { type: 'string' };
export const int = { type: 'integer' };
export const bool = { type: 'boolean' };
export const dateTime = { type: 'string', format: 'date-time' };
export const nullable = (schema: object) => ({ oneOf: [schema, { type: 'null' }] });
export const obj = (properties: Record<string, object>, required?: string[]) => ({ type: 'object', properties, ...(required?.length ? { required } : {}) });
export const query = (name: string, schema: object, description?: string) => ({ name, in: 'query', schema, ...(description ? { description } : {}) });
/** A path parameter holding a row id (or another pattern). */
export const pathId = (name: string, description: string, pattern = '^[1-9][0-9]*$') => ({ name, in: 'path', required: true, description, schema: { type: 'string', pattern } });
