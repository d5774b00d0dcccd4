import { ArgumentMetadata, createParamDecorator, ExecutionContext, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, validate } from 'class-validator';
import type { Request } from 'express';
import { EndpointName, GuardrailsApiError } from './envelope';

/** The `data` of a 422 for malformed input: the problem, a message, and every message by name. */
export type Refusal = { error: string; message: string; errors: Record<string, string[]> };

/** Every message under the parameter or field it names. */
const byField = (errors: ValidationError[]): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const e of errors) out[e.property] = Object.values(e.constraints ?? {});
  return out;
};

const invalidQuery = (errors: ValidationError[]): Refusal => ({
  error: 'invalid_query',
  message: 'some query parameters are invalid',
  errors: byField(errors),
});

/** A body's refusal: each message after the field it names, in one line. */
const invalidFields = (errors: ValidationError[]): Refusal => {
  const byName = byField(errors);
  const message = Object.entries(byName)
    .flatMap(([field, messages]) => messages.map((m) => `${field} ${m}`))
    .join('; ');
  return { error: 'validation_failed', message, errors: byName };
};

/**
 * Validates a query DTO the way this API answers: a 422 in the endpoint's own envelope with
 * `data.errors` keyed by name. Unknown parameters are ignored, not refused. The parameter kinds
 * parse their raw strings in a class-transformer step (dto/query-values.ts), hence this pipe.
 */
const queryPipe = (endpoint: EndpointName) =>
  new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // The input arrives through a custom parameter, which the platform's global pipe (another
    // error shape, unknown fields refused) leaves alone.
    validateCustomDecorators: true,
    exceptionFactory: (errors) => new GuardrailsApiError(422, endpoint, invalidQuery(errors)),
  });

/** The properties a DTO class declares rules for: the only fields taken from a body. */
const declaredFields = (dto: new () => object): string[] => [
  ...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName)),
];

/**
 * Validates a JSON body against its DTO class as sent: each declared field is copied unchanged onto
 * a new instance (undeclared fields stay behind, a missing one keeps the class's default) and checked
 * by its class-validator rules; a refusal is a 422 in the endpoint's envelope. Nest's ValidationPipe
 * is not used for bodies because it rewrites them: it deletes every `constructor`, `prototype` and
 * `__proto__` key at any depth, in the request itself, and copies the rest through class-transformer.
 * The free-form maps of this API must reach the guardrails library as sent: a pattern map with a
 * rule named `constructor` is refused by the settings registry, where the stripped map would pass
 * as "clear every rule".
 */
class BodyPipe implements PipeTransform<Record<string, unknown>, Promise<object>> {
  constructor(
    private readonly endpoint: EndpointName,
    private readonly refusal: (errors: ValidationError[]) => Refusal,
  ) {}

  async transform(body: Record<string, unknown>, { metatype }: ArgumentMetadata): Promise<object> {
    if (!metatype) throw new Error('an endpoint body parameter must be typed with its DTO class');
    const dto = new (metatype as new () => Record<string, unknown>)();
    for (const field of declaredFields(metatype)) {
      if (Object.hasOwn(body, field)) dto[field] = body[field];
    }
    const errors = await validate(dto, { forbidUnknownValues: true, validationError: { target: false } });
    if (errors.length) throw new GuardrailsApiError(422, this.endpoint, this.refusal(errors));
    return dto;
  }
}

const query = createParamDecorator((_data: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<Request>().query);
/** A body that is not a JSON object has none of the fields (each then takes its default). */
const bodyObject = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const body: unknown = ctx.switchToHttp().getRequest<Request>().body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
});

/** The query as the handler's DTO class; malformed parameters answer 422 `invalid_query`. Document it with `@ApiQuery({ type })`. */
export const EndpointQuery = (endpoint: EndpointName): ParameterDecorator => query(undefined, queryPipe(endpoint));

/**
 * The JSON body as the handler's DTO class; a malformed field answers 422 `validation_failed`, by
 * default with each message under its field (`refusal` words it otherwise). Document it with
 * `@ApiBody({ type })`.
 */
export const EndpointBody = (endpoint: EndpointName, refusal: (errors: ValidationError[]) => Refusal = invalidFields): ParameterDecorator =>
  bodyObject(undefined, new BodyPipe(endpoint, refusal));
