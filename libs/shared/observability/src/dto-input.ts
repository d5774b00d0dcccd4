import type { Type } from '@nestjs/common';
import { MAX, MIN } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { ValidationFailedError } from './domain-error';
import { createValidationPipe } from './validation';

/** A JSON Schema object (draft 2020-12 / draft-07 keywords, no `$schema`). */
export type JsonSchemaObject = Record<string, unknown>;

const pipe = createValidationPipe();

/**
 * Validates an input that does not arrive as an HTTP request (an MCP tool's arguments) exactly as
 * a request body is validated: only the DTO's fields (any other is refused), transformed, each
 * absent field keeping the DTO's initial value. Throws ValidationFailedError; the field '' is the
 * input as a whole.
 */
export async function validateDto<T extends object>(dto: Type<T>, input: unknown): Promise<T> {
  // The pipe hands primitives and arrays through unvalidated; an input is one object.
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ValidationFailedError([{ field: '', message: 'The input must be an object.' }]);
  }
  return (await pipe.transform(input, { type: 'body', metatype: dto })) as T;
}

/** Bounds add only the bound: the type comes from @IsInt/@IsNumber, which a bound must not overwrite. */
const converters = {
  [MIN]: (meta: { constraints: unknown[] }) => ({ minimum: meta.constraints[0] as number }),
  [MAX]: (meta: { constraints: unknown[] }) => ({ maximum: meta.constraints[0] as number }),
};

/**
 * The JSON Schema of what `validateDto(dto, …)` accepts, derived from the DTO itself: types and
 * limits from its class-validator decorators (descriptions from `@JSONSchema`), a field with an
 * initial value is optional with that value as its `default`, and no other property is allowed.
 */
export function dtoJsonSchema(dto: Type<object>): JsonSchemaObject {
  const derived = targetConstructorToSchema(dto, { additionalConverters: converters }) as { properties?: Record<string, JsonSchemaObject>; required?: string[] };
  const properties = { ...derived.properties };
  const defaults = Object.entries(new dto()).filter(([name, value]) => value !== undefined && name in properties);
  for (const [name, value] of defaults) properties[name] = { ...properties[name], default: value };
  const required = (derived.required ?? []).filter((name) => !defaults.some(([defaulted]) => defaulted === name));
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}
