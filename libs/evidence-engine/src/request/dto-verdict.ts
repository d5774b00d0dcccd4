import type { Type } from '@nestjs/common';
import { getMetadataStorage, IS_OPTIONAL, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { isPlainObject } from '../json';
import { nestedTypeOf } from './dto-instance';

/**
 * Whether `plain` (a request as sent) breaks none of the class-validator rules of `dto`, decided by
 * running the rules' own checks from the DTO's metadata, without building DTO instances and
 * without class-validator's error building. `undefined` means "cannot say": the caller asks
 * class-validator.
 *
 * Why: a large review (1,000 claims, 5,000 sources) spent ≈ 30 ms in `validateSync` building and
 * stripping a ValidationError per field, and ≈ 1 ms more building the 6,000 DTO instances it
 * validates, although almost every request is valid. A valid request now costs the checks alone;
 * an invalid one (or one this cannot judge) still goes through instances and class-validator,
 * which describe every problem exactly as before.
 *
 * Judging the plain object gives class-validator's verdict on the instance dto-instance.ts builds
 * from it: that instance holds the plain object's values for the declared fields (the same
 * references), nested objects as instances of their DTOs, and a list item that is not an object
 * as null, which nested validation refuses as a non-object here too.
 *
 * It mirrors `validateSync` with the options dto-problems.ts uses (no groups, no whitelist, no
 * unknown-value check, no skipping of missing properties): per property, the conditions
 * (`ValidateIf`, `IsOptional`) first, then each custom constraint (every built-in rule is one),
 * then nested DTOs and lists of them. Anything else (inherited rules, groups, `each`, nested
 * fields not declared with `Nested`, other rule types) answers `undefined`.
 */
export function passesEveryRule(dto: Type<object>, plain: Record<string, unknown>): boolean | undefined {
  const check = checkOf(dto);
  return check === null ? undefined : check(plain);
}

/** A compiled verdict on one object. */
type Check = (object: Record<string, unknown>) => boolean | undefined;

type Condition = (object: object, value: unknown) => boolean;

interface Constraint {
  async: boolean;
  instance: { validate(value: unknown, args: unknown): unknown };
}

const storage = getMetadataStorage();
const SUPPORTED = new Set<string>([ValidationTypes.CONDITIONAL_VALIDATION, ValidationTypes.CUSTOM_VALIDATION, ValidationTypes.NESTED_VALIDATION]);

/**
 * Per class: its compiled check, how many rules it had when compiled, and how many each class it
 * extends had (none, for a class compiled at all): a rule added later to either recompiles it.
 */
const compiled = new Map<Function, { rules: number; ancestors: Array<[Function, number]>; check: Check | null }>();

/**
 * The rules registered per class. class-validator keeps them in a Map it does not export a getter
 * for; its public lookup filters the rules of every class on each call (the cost this avoids).
 * Should its shape ever change, nothing is judged here and class-validator decides.
 */
const REGISTERED = ((): Map<Function, ValidationMetadata[]> | undefined => {
  const map = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  return map instanceof Map ? (map as Map<Function, ValidationMetadata[]>) : undefined;
})();

function checkOf(dto: Function): Check | null {
  if (!REGISTERED) return null;
  const own = REGISTERED.get(dto) ?? [];
  const known = compiled.get(dto);
  if (known && known.rules === own.length && unchanged(known.ancestors)) return known.check;
  const check = compileClass(dto, own, REGISTERED);
  compiled.set(dto, { rules: own.length, ancestors: ancestorsOf(dto).map((a) => [a, ruleCount(a)]), check });
  return check;
}

const ruleCount = (type: Function): number => REGISTERED?.get(type)?.length ?? 0;

function unchanged(ancestors: Array<[Function, number]>): boolean {
  for (let i = 0; i < ancestors.length; i++) if (ruleCount(ancestors[i][0]) !== ancestors[i][1]) return false;
  return true;
}

/** The classes `dto` extends (its constructor's prototype chain). */
function ancestorsOf(dto: Function): Function[] {
  const out: Function[] = [];
  for (let p: unknown = Object.getPrototypeOf(dto); typeof p === 'function' && p !== Function.prototype; p = Object.getPrototypeOf(p)) out.push(p);
  return out;
}

/**
 * The class's rules compiled into one function, or null when something cannot be mirrored exactly.
 *
 * The function's source is generated from the metadata, one block per property in declaration
 * order, each reading its property by name and calling its rules' own checks. Why generated: an
 * interpreted walk over the rules reads every property of every DTO through one shared
 * `object[name]` and calls every check from one shared call site, which V8 can only serve
 * through generic lookups and calls; a large review's validation took 2–3× the hand-written
 * parser's time that way. No input reaches the source: property names are declared in code and
 * written as JSON strings, every function and value is passed in by reference (`r[i]`).
 */
function compileClass(dto: Function, own: ValidationMetadata[], all: Map<Function, ValidationMetadata[]>): Check | null {
  // Inherited rules follow their own precedence in class-validator: left to it.
  for (const ancestor of all.keys()) if (dto.prototype instanceof ancestor) return null;
  if (ancestorsOf(dto).some((a) => ruleCount(a) > 0)) return null;
  const byName = new Map<string, ValidationMetadata[]>();
  for (const m of own) {
    // A symbol-keyed property cannot be written into the generated source (nor sent as JSON).
    if (typeof m.propertyName !== 'string') return null;
    if (m.target !== dto || !SUPPORTED.has(m.type) || m.each || (m.groups && m.groups.length > 0)) return null;
    byName.set(m.propertyName, [...(byName.get(m.propertyName) ?? []), m]);
  }
  const refs: unknown[] = [];
  const ref = (value: unknown): string => `r[${refs.push(value) - 1}]`;
  const lines = ['let value, validate, ok;'];
  for (const [name, rules] of byName) {
    const block = compileProperty(dto, name, rules, ref);
    if (block === null) return null;
    lines.push(...block);
  }
  lines.push('return true;');
  const make = new Function('r', `return function check(object) {\n${lines.join('\n')}\n};`) as (r: unknown[]) => Check;
  return make(refs);
}

/**
 * One property's rules as class-validator applies them: every condition (`ValidateIf`,
 * `IsOptional`) is evaluated and the property is validated only when all hold; then each custom
 * rule (its own `validateIf` first, then its constraints' synchronous checks, with the
 * ValidationArguments class-validator passes); then the nested DTO or list of them.
 */
function compileProperty(dto: Function, name: string, rules: ValidationMetadata[], ref: (value: unknown) => string): string[] | null {
  const property = JSON.stringify(name);
  const conditions: string[] = [];
  const checks: string[] = [];
  let nested: string | undefined;
  for (const m of rules) {
    if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      // IsOptional's own condition is `object[property]` neither null nor undefined: the value read.
      const condition = m.name === IS_OPTIONAL ? '(value !== null && value !== undefined)' : `${ref(m.constraints[0])}(object, value)`;
      conditions.push(`validate = ${condition} && validate;`);
    } else if (m.type === ValidationTypes.CUSTOM_VALIDATION) {
      const validateIf = (m as { validateIf?: Condition }).validateIf;
      const args = `{ targetName: ${JSON.stringify(dto.name)}, property: ${property}, object, value, constraints: ${ref(m.constraints)} }`;
      const calls = (storage.getTargetValidatorConstraints(m.constraintCls) as unknown as Constraint[])
        // validateSync skips asynchronous constraints.
        .filter((c) => !c.async)
        // Looked up once: class-validator's getter asks its container on every read, and the
        // default container hands out one instance per class.
        .map((c) => `ok = ${ref(c.instance)}.validate(value, ${args}); if (ok instanceof Promise) return undefined; if (!ok) return false;`);
      checks.push(validateIf ? `if (${ref(validateIf)}(object, value)) { ${calls.join(' ')} }` : calls.join(' '));
    } else {
      const type = nestedTypeOf(dto, name);
      if (!type) return null;
      nested = `ok = ${ref(nestedPasses)}(${ref(type())}, value); if (ok !== true) return ok;`;
    }
  }
  return [
    `value = object[${property}];`,
    'validate = true;',
    ...conditions,
    'if (validate) {',
    ...checks,
    ...(nested ? [nested] : []),
    '}',
  ];
}

/** A nested field's value, as class-validator's nested validation walks the instance built from it. */
function nestedPasses(type: Type<object>, value: unknown): boolean | undefined {
  if (value === undefined) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // The instance holds null for an item that is not an object: refused as not an object.
      if (!isPlainObject(item)) return false;
      const verdict = passesEveryRule(type, item);
      if (verdict !== true) return verdict;
    }
    return true;
  }
  if (isPlainObject(value)) return passesEveryRule(type, value);
  // A non-object (null included) is refused as "must be either object or array".
  return false;
}
