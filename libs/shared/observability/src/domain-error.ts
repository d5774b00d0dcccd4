/**
 * A failure the caller can act on. Services throw these; the global filter turns them into
 * RFC 9457 problem+json with the code as the problem type's last segment.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export interface FieldError {
  field: string;
  message: string;
}

export class ValidationFailedError extends DomainError {
  constructor(readonly errors: FieldError[], status = 422) {
    super('validation_failed', status, errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });
  }
}

/**
 * The errors as `{field: [messages]}`. Each field is an own key, whatever its name: a field named
 * `toString` or `__proto__` (a client's key) neither hits an inherited member nor sets a prototype.
 */
export function errorsByField(errors: readonly FieldError[]): Record<string, string[]> {
  const byField: Record<string, string[]> = {};
  for (const { field, message } of errors) {
    if (Object.hasOwn(byField, field)) byField[field]!.push(message);
    else Object.defineProperty(byField, field, { value: [message], writable: true, enumerable: true, configurable: true });
  }
  return byField;
}
