import { createParamDecorator, ExecutionContext, ValidationPipe } from '@nestjs/common';
import type { ValidationError } from '@nestjs/common';
import { FieldError, ValidationFailedError } from '@platform/observability';
import type { Request } from 'express';

const flatten = (errors: ValidationError[], parent: string): FieldError[] =>
  errors.flatMap((e) => {
    const field = `${parent}.${e.property}`;
    return [...Object.values(e.constraints ?? {}).map((message) => ({ field, message })), ...flatten(e.children ?? [], field)];
  });

/**
 * Validates a query DTO the way this area answers: 422 validation_error whose details name each
 * field as `query.<name>` (EvidenceErrorFilter), unknown parameters ignored rather than refused.
 */
export class EvidenceQueryPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: false,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      // The query arrives through EvidenceQuery, a custom parameter the global pipe leaves alone.
      validateCustomDecorators: true,
      exceptionFactory: (errors) => new ValidationFailedError(flatten(errors, 'query')),
    });
  }
}

/**
 * The request's query as the handler's DTO class, validated by EvidenceQueryPipe. A custom
 * parameter rather than `@Query()`: the platform's global pipe (strict, `{field}` without a
 * location) would refuse unknown parameters in another shape first. Document the DTO with
 * `@ApiQuery({ type: Dto })` beside it.
 */
export const EvidenceQuery = (): ParameterDecorator =>
  createParamDecorator((_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>().query)(undefined, new EvidenceQueryPipe());
