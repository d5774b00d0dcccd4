import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import { registerDecorator, ValidateBy, ValidationArguments } from 'class-validator';

/**
 * Query-string fields of the document read routes, as the SPA sends them: `q=…`, a list as
 * `slugs[]=a&slugs[]=b` or a single `slugs=a`. Each field answers at most one message (Laravel's
 * wording, lengths counted in code points) so that a 422 reads `{field: [message]}`. A DTO built
 * from these takes `@Exclude()` on the class: only its fields are read and any other query
 * parameter is ignored, as these routes always did.
 */

const codePoints = (s: string) => [...s].length;

export interface TextRule {
  required?: boolean;
  min?: number;
  max: number;
  description?: string;
}

export interface ListRule {
  required?: boolean;
  maxItems: number;
  /** Of each entry, once trimmed. */
  maxLength: number;
  description?: string;
}

function textProblem(field: string, value: unknown, rule: TextRule): string | null {
  if (value === undefined) return rule.required ? `The ${field} field is required.` : null;
  if (typeof value !== 'string') return `The ${field} field must be a string.`;
  const length = codePoints(value);
  if (rule.min !== undefined && length < rule.min) return `The ${field} field must be at least ${rule.min} characters.`;
  if (length > rule.max) return `The ${field} field must not be greater than ${rule.max} characters.`;
  return null;
}

function listProblem(field: string, value: unknown, rule: ListRule): string | null {
  const items = value as unknown[];
  if (items.length === 0) return rule.required ? `The ${field} field is required.` : null;
  if (items.length > rule.maxItems) return `The ${field} field must not have more than ${rule.maxItems} items.`;
  return null;
}

function entryProblem(field: string, value: unknown, maxLength: number): string | null {
  if (typeof value !== 'string' || value === '') return `The ${field} field must be a non-empty string.`;
  if (codePoints(value) > maxLength) return `The ${field} field must not be greater than ${maxLength} characters.`;
  return null;
}

/** A trimmed string; blank counts as absent. */
export function QueryText(rule: TextRule): PropertyDecorator {
  return applyDecorators(
    Expose(),
    Transform(({ value }) => (typeof value === 'string' ? value.trim() || undefined : value)),
    ApiProperty({ type: 'string', required: !!rule.required, minLength: rule.min, maxLength: rule.max, description: rule.description }),
    ValidateBy({
      name: 'queryText',
      validator: {
        validate: (value, args) => textProblem(args!.property, value, rule) === null,
        defaultMessage: (args) => textProblem(args!.property, args!.value, rule) ?? '',
      },
    }),
  );
}

/**
 * A list read from `name[]` (else `name`), its entries trimmed; absent is empty. The list itself
 * answers under `name` (required, too many); each entry under `name.<index>`, the key Laravel
 * gives it. Class-validator keys a failure by property, so every index up to `maxItems` is a
 * read-only view property `name.<index>` of the DTO carrying its own check; views are not own
 * keys, so the whitelist never sees them, and they are checked only once the list itself is fine.
 * The handler de-duplicates the entries (after checking, so that indexes name what was sent).
 */
export function QueryList(rule: ListRule): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    const field = String(key);
    applyDecorators(
      Expose(),
      Transform(({ obj }) => {
        const source = obj as Record<string, unknown>;
        const raw = source[`${field}[]`] ?? source[field];
        if (raw === undefined) return [];
        return (Array.isArray(raw) ? raw : [raw]).map((item: unknown) => (typeof item === 'string' ? item.trim() : item));
      }),
      ApiProperty({
        name: `${field}[]`,
        required: !!rule.required,
        description: rule.description,
        type: 'array',
        maxItems: rule.maxItems,
        items: { type: 'string', maxLength: rule.maxLength },
        // How a list travels in a query string: one `name[]=` per entry.
        ...({ style: 'form', explode: true } as object),
      }),
      ValidateBy({
        name: 'queryList',
        validator: {
          validate: (value, args) => listProblem(args!.property, value, rule) === null,
          defaultMessage: (args) => listProblem(args!.property, args!.value, rule) ?? '',
        },
      }),
    )(target, key);
    for (let index = 0; index < rule.maxItems; index++) checkEntry(target, field, index, rule);
  };
}

function checkEntry(target: object, field: string, index: number, rule: ListRule): void {
  const view = `${field}.${index}`;
  Object.defineProperty(target, view, {
    get(this: Record<string, unknown[] | undefined>) {
      return this[field]?.[index];
    },
    enumerable: false,
    configurable: true,
  });
  const listIsFine = (args: ValidationArguments) => {
    const list = (args.object as Record<string, unknown>)[field];
    return Array.isArray(list) && index < list.length && listProblem(field, list, rule) === null;
  };
  registerDecorator({
    name: 'queryListEntry',
    target: target.constructor,
    propertyName: view,
    validator: {
      validate: (value, args) => !listIsFine(args!) || entryProblem(view, value, rule.maxLength) === null,
      defaultMessage: (args) => entryProblem(view, args!.value, rule.maxLength) ?? '',
    },
  });
}
