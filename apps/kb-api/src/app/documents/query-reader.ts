import { KbValidationError } from '../errors/kb-errors';

type Query = Record<string, unknown>;

/**
 * Reads query-string parameters the way the SPA sends them (`q=…`, `slugs[]=a&slugs[]=b`, or a
 * single `slugs=a`) and collects every problem by field, answered together as one 422.
 */
export class QueryReader {
  private readonly errors: Record<string, string[]> = {};

  constructor(private readonly query: Query) {}

  private fail(field: string, message: string): undefined {
    (this.errors[field] ??= []).push(message);
    return undefined;
  }

  /** A trimmed string of `min`..`max` characters; absent or blank fails when required. */
  text(name: string, o: { required: true; min?: number; max: number }): string | undefined;
  text(name: string, o: { required?: false; min?: number; max: number }): string | undefined;
  text(name: string, o: { required?: boolean; min?: number; max: number }): string | undefined {
    const raw = this.query[name];
    if (raw === undefined || (typeof raw === 'string' && raw.trim() === '')) {
      return o.required ? this.fail(name, `The ${name} field is required.`) : undefined;
    }
    if (typeof raw !== 'string') return this.fail(name, `The ${name} field must be a string.`);
    const value = raw.trim();
    const length = [...value].length;
    if (o.min !== undefined && length < o.min)
      return this.fail(name, `The ${name} field must be at least ${o.min} characters.`);
    if (length > o.max)
      return this.fail(name, `The ${name} field must not be greater than ${o.max} characters.`);
    return value;
  }

  /** `name[]` (or `name`) as a list of trimmed, non-empty, distinct strings; a required list needs one. */
  list(name: string, o: { required?: boolean; maxItems: number; maxLength: number }): string[] {
    const raw = this.query[`${name}[]`] ?? this.query[name];
    if (raw === undefined || (Array.isArray(raw) && raw.length === 0))
      return (o.required ? this.fail(name, `The ${name} field is required.`) : undefined) ?? [];
    const items = Array.isArray(raw) ? raw : [raw];
    if (items.length > o.maxItems)
      return (
        this.fail(name, `The ${name} field must not have more than ${o.maxItems} items.`) ?? []
      );
    const values: string[] = [];
    items.forEach((item, i) => {
      if (typeof item !== 'string' || item.trim() === '')
        return this.fail(`${name}.${i}`, `The ${name}.${i} field must be a non-empty string.`);
      if ([...item.trim()].length > o.maxLength)
        return this.fail(
          `${name}.${i}`,
          `The ${name}.${i} field must not be greater than ${o.maxLength} characters.`,
        );
      values.push(item.trim());
    });
    return [...new Set(values)];
  }

  /** Throws the collected problems, if any. */
  done(): void {
    if (Object.keys(this.errors).length) throw new KbValidationError(this.errors);
  }
}
