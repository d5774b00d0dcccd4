import Ajv, { ErrorObject, ValidateFunction } from 'ajv';

export type JsonSchema = Record<string, unknown>;

/**
 * One Ajv instance for tool-argument and structured-output schemas. Schemas come from tool
 * definitions and callers, so unknown keywords and formats are tolerated rather than fatal
 * (strict off, no logging), nothing is coerced or defaulted (arguments are shown verbatim), and
 * schemas are not registered by `$id` (two tools may reuse one).
 */
const ajv = new Ajv({
  allErrors: true,
  strict: false,
  coerceTypes: false,
  useDefaults: false,
  addUsedSchema: false,
  validateFormats: false,
  logger: false,
});

const compiled = new WeakMap<object, ValidateFunction>();

/** Compiles (once per schema object) or throws with Ajv's reason when the schema is invalid. */
export function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

export interface SchemaViolation {
  /** JSON pointer of the offending value ('' for the root). */
  path: string;
  message: string;
  keyword: string;
  params: Record<string, unknown>;
}

export function violationsOf(errors: ErrorObject[] | null | undefined): SchemaViolation[] {
  return (errors ?? []).map((e) => ({
    path: e.instancePath,
    message: e.message ?? 'is invalid',
    keyword: e.keyword,
    params: e.params as Record<string, unknown>,
  }));
}
