/**
 * The typed parameters of a maintenance command. One declaration serves the catalogue (what the
 * admin UI renders) and the validation of preview and run (422 naming `params.<name>`).
 */
export type ParamSpec =
  | { name: string; type: 'integer'; description: string; required?: boolean; default?: number; minimum: number; maximum: number }
  | { name: string; type: 'boolean'; description: string; default: boolean }
  | { name: string; type: 'string'; description: string; required?: boolean; maxLength: number; pattern?: string };

export type ParamValues = Record<string, string | number | boolean>;

/** Checks `given` against the specs: returns the values with defaults applied, or the errors by field. */
export function validateParams(specs: readonly ParamSpec[], given: unknown): { values: ParamValues; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const values: ParamValues = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (given !== undefined && given !== null && (typeof given !== 'object' || Array.isArray(given))) {
    fail('params', 'The params field must be an object.');
    return { values, errors };
  }
  const input = (given ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!specs.some((s) => s.name === key)) fail(`params.${key}`, `The ${key} parameter is not known to this command.`);
  }
  for (const spec of specs) {
    const field = `params.${spec.name}`;
    const v = input[spec.name];
    if (v === undefined || v === null) {
      if ('default' in spec && spec.default !== undefined) values[spec.name] = spec.default;
      else if ('required' in spec && spec.required) fail(field, `The ${spec.name} parameter is required.`);
      continue;
    }
    switch (spec.type) {
      case 'integer':
        if (typeof v !== 'number' || !Number.isInteger(v)) fail(field, `The ${spec.name} parameter must be an integer.`);
        else if (v < spec.minimum || v > spec.maximum) fail(field, `The ${spec.name} parameter must be between ${spec.minimum} and ${spec.maximum}.`);
        else values[spec.name] = v;
        break;
      case 'boolean':
        if (typeof v !== 'boolean') fail(field, `The ${spec.name} parameter must be true or false.`);
        else values[spec.name] = v;
        break;
      case 'string': {
        const s = typeof v === 'string' ? v.trim() : null;
        if (s === null || s === '') fail(field, `The ${spec.name} parameter must be a non-empty string.`);
        else if (s.length > spec.maxLength) fail(field, `The ${spec.name} parameter must not be greater than ${spec.maxLength} characters.`);
        else if (spec.pattern && !new RegExp(spec.pattern).test(s)) fail(field, `The ${spec.name} parameter format is invalid.`);
        else values[spec.name] = s;
        break;
      }
    }
  }
  return { values, errors };
}
