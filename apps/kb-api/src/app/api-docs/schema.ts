import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** `T | null` in OpenAPI 3.1 terms, for an @ApiProperty whose value may be null. */
export const nullable = (schema: SchemaObject): { oneOf: SchemaObject[] } => ({ oneOf: [schema, { type: 'null' }] });

/** An ISO 8601 timestamp as the API writes them. */
export const DATE_TIME = { type: 'string', format: 'date-time' } as const;

/** A positive integer id of a row, as answered in bodies. */
export const ROW_ID = { type: 'integer', minimum: 1 } as const;
