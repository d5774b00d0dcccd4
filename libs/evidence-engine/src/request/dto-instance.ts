import type { Type } from '@nestjs/common';
import { getMetadataStorage, ValidateNested } from 'class-validator';
import { isPlainObject } from '../json';

/** DTO class → its nested DTO fields (property → the field's class). */
const nestedFields = new Map<Function, Map<string, () => Type<object>>>();
/** DTO class → the properties its decorators declare, in declaration order. */
const declaredFields = new Map<Function, string[]>();

/** A field holding a DTO (or a list of them): validated inside, built as `type` by instantiate. */
export function Nested(type: () => Type<object>): PropertyDecorator {
  return (target, property) => {
    const fields = nestedFields.get(target.constructor) ?? new Map<string, () => Type<object>>();
    fields.set(String(property), type);
    nestedFields.set(target.constructor, fields);
    ValidateNested()(target, property);
  };
}

/** The DTO class a field declared with Nested holds, if it is one. */
export function nestedTypeOf(dto: Function, field: string): (() => Type<object>) | undefined {
  return nestedFields.get(dto)?.get(field);
}

function fieldsOf(dto: Function): string[] {
  let fields = declaredFields.get(dto);
  if (!fields) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    fields = [...new Set(metadata.map((m) => m.propertyName))];
    declaredFields.set(dto, fields);
  }
  return fields;
}

/**
 * The object class-validator validates for `plain`: an instance of `dto` holding only the fields
 * the DTO declares (others are dropped, as the request contract drops unknown fields), nested
 * objects as instances of their DTOs, every other value as given (the same reference: free-form
 * metadata reaches the review unchanged).
 *
 * Not class-transformer's plainToInstance: it copies every value, unknown fields included, and
 * leaves the "constructor" and "__proto__" keys out of the copies of free-form objects (throwing
 * on them where a field has no type metadata), so metadata would not reach the review as sent.
 */
export function instantiate<T extends object>(dto: Type<T>, plain: Record<string, unknown>): T {
  const instance = new dto() as Record<string, unknown>;
  const nested = nestedFields.get(dto);
  for (const field of fieldsOf(dto)) {
    const value = plain[field];
    if (value === undefined) continue;
    const type = nested?.get(field);
    instance[field] = type ? nestedValue(type(), value) : value;
  }
  return instance as T;
}

/**
 * What class-validator sees of a nested field: DTO instances only. A list item that is not an
 * object becomes null (the list's rule reports it by its path alone); passing it on as sent would
 * let class-validator walk client-built structures (arrays in arrays, thousands deep) and meet
 * objects whose `constructor` key the client chose.
 */
function nestedValue(type: Type<object>, value: unknown): unknown {
  if (isPlainObject(value)) return instantiate(type, value);
  if (Array.isArray(value))
    return value.map((item) => (isPlainObject(item) ? instantiate(type, item) : null));
  return value;
}
