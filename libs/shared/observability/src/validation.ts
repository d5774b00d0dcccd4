import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidateIf } from 'class-validator';
import { FieldError, ValidationFailedError } from './domain-error';
import { cacheValidationMetadata } from './validation-metadata-cache';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Strict body/query validation: unknown properties are refused and every problem names its field
 * (`documents.3.source_path: ...`), answered as 422 with `errors: [{field, message}]`.
 */
export function createValidationPipe(status = 422): ValidationPipe {
  cacheValidationMetadata();
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new ValidationFailedError(flatten(errors), status),
  });
}

/**
 * Validates a body field only when it is present. Unlike @IsOptional, null (or a value of another type) is refused,
 * never taken as absent: a PATCH that sends `"email": null` gets 422, not a null written or a crash on it.
 */
export const UnlessAbsent = () => ValidateIf((_o: object, value: unknown) => value !== undefined);
