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
