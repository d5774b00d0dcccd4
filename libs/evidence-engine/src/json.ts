import { FieldProblem } from './errors';
import { JsonObject } from './types';

/** A JSON object: not null, not an array. */
export const isPlainObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Collects every problem of one input, so callers see all of them at once. */
export class ProblemList {
  readonly items: FieldProblem[] = [];

  add(path: string, message: string): void {
    this.items.push({ path, message });
  }

  get empty(): boolean {
    return this.items.length === 0;
  }
}

/** Joins a base path and a key or index: `artifact` + `claims` → `artifact.claims`. */
export const pathOf = (base: string, key: string | number): string =>
  base === '' ? String(key) : `${base}.${key}`;

/** A whole number ≥ 0, given as a number or as a string of digits. */
export function wholeNumber(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** Freezes a value and everything in it: exported built-ins must not be changed by a caller. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
