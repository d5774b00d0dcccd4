import type { ApiPropertyOptions } from '@nestjs/swagger';

/** A field's OpenAPI documentation, as declared on the DTO, waiting for the host that publishes the API. */
interface DocumentedField {
  target: object;
  property: string;
  options: ApiPropertyOptions;
  required: boolean;
}

const declared: DocumentedField[] = [];

/**
 * The OpenAPI documentation of a request DTO's field: @nestjs/swagger's ApiProperty options,
 * written on the field beside its validation rule (the DTO stays the one contract), applied by
 * applyApiDocs in the host that publishes the API rather than when the class loads.
 *
 * Why deferred: @nestjs/swagger loads NestJS's core and rxjs (about 700 modules, 7 MB of heap)
 * into every user of the engine, the CLI and the MCP server included; in process, that larger heap
 * made a large review's garbage collection alone cost more than the engine's own work saved.
 */
export const ApiField =
  (options: ApiPropertyOptions = {}): PropertyDecorator =>
  (target, property) => {
    declared.push({ target, property: String(property), options, required: true });
  };

/** ApiField for a field that may be left out (ApiPropertyOptional). */
export const ApiFieldOptional =
  (options: ApiPropertyOptions = {}): PropertyDecorator =>
  (target, property) => {
    declared.push({ target, property: String(property), options, required: false });
  };

/**
 * Hands every field documented so far to @nestjs/swagger, in declaration order (the schema's
 * property order), each once: the host passes swagger's own decorators, before its OpenAPI
 * document is built.
 */
export function applyApiDocs(swagger: {
  ApiProperty: (options?: ApiPropertyOptions) => PropertyDecorator;
  ApiPropertyOptional: (options?: ApiPropertyOptions) => PropertyDecorator;
}): void {
  for (const field of declared.splice(0)) {
    const decorate = field.required ? swagger.ApiProperty : swagger.ApiPropertyOptional;
    decorate(field.options)(field.target, field.property);
  }
}
