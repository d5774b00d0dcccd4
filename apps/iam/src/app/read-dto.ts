import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/** The first message of each field that failed its rules. */
export type FieldErrors<T> = Partial<Record<Extract<keyof T, string>, string>>;

export interface DtoReading<T> {
  /** The DTO's fields as its transforms left them; a field that failed its rules is undefined. */
  value: T;
  /** Each failing field's message: that of its first rule, as written, that failed. */
  errors: FieldErrors<T>;
}

/**
 * Reads an input through its DTO's class-validator rules without throwing, for routes whose answer
 * to a bad field is their own (a sign-in page shows the form again with the message, an
 * authorization request goes back to the client, a passkey call answers `{message}`) rather than
 * the platform pipe's 422. Fields the DTO does not declare are dropped, not refused: RFC 6749 §3.1
 * has the authorization server ignore parameters it does not know, and a page's form ignores them
 * as well. A failing field is left undefined so no caller can use a value its rules refused.
 */
export function readDto<T extends object>(dto: new () => T, input: unknown): DtoReading<T> {
  const plain = input !== null && typeof input === 'object' && !Array.isArray(input) ? input : {};
  const value = plainToInstance(dto, plain);
  const errors: Record<string, string> = {};
  for (const failure of validateSync(value, { whitelist: true, forbidUnknownValues: false })) {
    // Decorators register bottom-up, so the rule written first is the last one reported.
    const message = Object.values(failure.constraints ?? {}).at(-1);
    if (message !== undefined) errors[failure.property] = message;
    (value as Record<string, unknown>)[failure.property] = undefined;
  }
  return { value, errors: errors as FieldErrors<T> };
}
