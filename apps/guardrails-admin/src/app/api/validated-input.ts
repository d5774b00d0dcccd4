import { createParamDecorator, ExecutionContext, ValidationError, ValidationPipe } from '@nestjs/common';
import type { Request } from 'express';
import { EndpointName, GuardrailsApiError } from './envelope';

/** Every message under the parameter or field it names. */
const byField = (errors: ValidationError[]): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const e of errors) out[e.property] = Object.values(e.constraints ?? {});
  return out;
};

/**
 * Validates a DTO the way this API answers: a 422 in the endpoint's own envelope with
 * `data.errors` keyed by name. Unknown parameters and fields are ignored, not refused.
 */
const pipeFor = (problem: (errors: Record<string, string[]>) => { error: string; message: string }, endpoint: EndpointName) =>
  new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The input arrives through a custom parameter, which the platform's global pipe (another
    // error shape, unknown fields refused) leaves alone.
    validateCustomDecorators: true,
    exceptionFactory: (errors) => {
      const byName = byField(errors);
      return new GuardrailsApiError(422, endpoint, { ...problem(byName), errors: byName });
    },
  });

const query = createParamDecorator((_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>().query);
/** A body that is not a JSON object has none of the fields (each then takes its default). */
const bodyObject = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const body: unknown = ctx.switchToHttp().getRequest<Request>().body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
});

/** The query as the handler's DTO class; malformed parameters answer 422 `invalid_query`. Document it with `@ApiQuery({ type })`. */
export const EndpointQuery = (endpoint: EndpointName): ParameterDecorator =>
  query(undefined, pipeFor(() => ({ error: 'invalid_query', message: 'some query parameters are invalid' }), endpoint));

/** The JSON body as the handler's DTO class; a malformed field answers 422 `validation_failed`. Document it with `@ApiBody({ type })`. */
export const EndpointBody = (endpoint: EndpointName): ParameterDecorator =>
  bodyObject(
    undefined,
    pipeFor(
      (errors) => ({
        error: 'validation_failed',
        message: Object.entries(errors)
          .flatMap(([field, messages]) => messages.map((m) => `${field} ${m}`))
          .join('; '),
      }),
      endpoint,
    ),
  );
