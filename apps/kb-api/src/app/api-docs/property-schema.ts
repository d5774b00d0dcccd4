import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** An OpenAPI 3.1 schema; `propertyNames` (the keys of a map) is missing from swagger's own type. */
type PlainSchema = SchemaObject | ReferenceObject | (SchemaObject & { propertyNames?: SchemaObject });

/**
 * A DTO property given as a plain OpenAPI schema (`nullable(...)`, nested objects with
 * `$ref`s), which @ApiProperty's own option type does not express; required unless said otherwise.
 */
export const ApiPropertySchema = (schema: PlainSchema, options: { required?: boolean; description?: string } = {}) =>
  ApiProperty({ ...schema, required: options.required ?? true, ...(options.description ? { description: options.description } : {}) } as ApiPropertyOptions);
