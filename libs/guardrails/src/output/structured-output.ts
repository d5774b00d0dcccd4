import { JsonSchema, SchemaViolation, validatorFor, violationsOf } from '../shared/json-schema';

export type StructuredOutput =
  | { valid: true; value: unknown }
  | { valid: false; value: unknown; errors: SchemaViolation[] };

/** Models often wrap JSON in a fenced block; the fence is not part of the value. */
function stripJsonFence(text: string): string {
  const fenced = /^\s*```(?:json)?[ \t]*\n([\s\S]*?)\n```\s*$/i.exec(text);
  return fenced ? fenced[1] : text;
}

/**
 * Validates model output against a JSON schema: a string is parsed as JSON first (a parse failure
 * or an invalid schema is a validation failure, never an exception).
 */
export function validateStructuredOutput(output: unknown, schema: JsonSchema): StructuredOutput {
  let value = output;
  if (typeof output === 'string') {
    try {
      value = JSON.parse(stripJsonFence(output));
    } catch (e) {
      return { valid: false, value: output, errors: [{ path: '', message: `is not valid JSON: ${(e as Error).message}`, keyword: 'json', params: {} }] };
    }
  }
  let validate;
  try {
    validate = validatorFor(schema);
  } catch (e) {
    return { valid: false, value, errors: [{ path: '', message: `schema is invalid: ${(e as Error).message}`, keyword: 'schema', params: {} }] };
  }
  return validate(value) ? { valid: true, value } : { valid: false, value, errors: violationsOf(validate.errors) };
}
