import { JsonSchema, validatorFor } from '../shared/json-schema';

/**
 * Schema violations keyed by top-level argument, worded for the firewall log ("Missing required
 * argument [k].", "Argument [k] must be of type [t]."). An invalid tool schema is itself a
 * violation: the call cannot be checked, so it must not run.
 */
export function argumentViolations(args: Record<string, unknown>, schema: JsonSchema): Record<string, string> {
  let validate;
  try {
    validate = validatorFor(schema);
  } catch (e) {
    return { _schema: `Tool schema is invalid: ${(e as Error).message}` };
  }
  if (validate(args)) return {};
  const violations: Record<string, string> = {};
  for (const error of validate.errors ?? []) {
    const [, top, ...rest] = error.instancePath.split('/');
    const params = error.params as Record<string, unknown>;
    let key: string;
    let reason: string;
    if (error.instancePath === '' && error.keyword === 'required') {
      key = String(params['missingProperty']);
      reason = `Missing required argument [${key}].`;
    } else if (error.instancePath === '' && error.keyword === 'additionalProperties') {
      key = String(params['additionalProperty']);
      reason = `Unknown argument [${key}] is not declared in the tool schema.`;
    } else if (top === undefined) {
      key = '_arguments';
      reason = `Arguments ${error.message ?? 'are invalid'}.`;
    } else if (rest.length === 0 && error.keyword === 'type') {
      key = top;
      reason = `Argument [${key}] must be of type [${String(params['type'])}].`;
    } else {
      key = top;
      const where = rest.length ? ` /${rest.join('/')}` : '';
      reason = `Argument [${key}]${where} ${error.message ?? 'is invalid'}.`;
    }
    violations[key] ??= reason;
  }
  return violations;
}
