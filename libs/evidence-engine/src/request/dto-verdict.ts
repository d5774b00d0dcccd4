import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * Whether a DTO instance breaks none of its class-validator rules, decided by running the rules'
 * own checks on the DTO's metadata, without class-validator's error building.
 *
 * Why: a large review (1,000 claims, 5,000 sources) spent ≈ 30 ms in `validateSync` building and
 * stripping a ValidationError per field, although almost every request is valid. A valid request
 * now costs the checks alone; an invalid one (or one this cannot judge) still goes through
 * class-validator, which describes every problem exactly as before.
 *
 * It mirrors `validateSync` with the options dto-problems.ts uses (no groups, no whitelist, no
 * unknown-value check, no skipping of missing properties): per property, the conditions
 * (`ValidateIf`, `IsOptional`) first, then each custom constraint (every built-in rule is one),
 * then nested DTOs and lists of them. Anything else (inherited rules, groups, `each`, sets, maps,
 * promises, other rule types) answers `undefined`: the caller asks class-validator.
 */
export function passesEveryRule(object: object): boolean | undefined {
  const plan = planOf(object.constructor);
  if (plan === null) return undefined;
  const values = object as Record<string, unknown>;
  for (let i = 0; i < plan.length; i++) {
    const verdict = propertyPasses(object, values[plan[i].name], plan[i]);
    if (verdict !== true) return verdict;
  }
  return true;
}

interface Constraint {
  async: boolean;
  instance: { validate(value: unknown, args: unknown): unknown };
}

interface CustomRule {
  metadata: ValidationMetadata;
  /** The rule's own condition (ValidationOptions.validateIf), when it has one. */
  validateIf?: (object: object, value: unknown) => boolean;
  /** The rule's constraint classes' instances, as class-validator looks them up for it. */
  constraints: Constraint[];
}

interface PropertyPlan {
  name: string;
  /** The class's name, as class-validator passes it to constraints (`targetName`). */
  targetName: string;
  /** The `ValidateIf`/`IsOptional` conditions: the property is validated only when all hold. */
  conditions: Array<(object: object, value: unknown) => boolean>;
  custom: CustomRule[];
  nested: boolean;
}

const storage = getMetadataStorage();
const SUPPORTED = new Set<string>([ValidationTypes.CONDITIONAL_VALIDATION, ValidationTypes.CUSTOM_VALIDATION, ValidationTypes.NESTED_VALIDATION]);

/** Per class: its plan, and how many rules it had when planned (a rule added later re-plans it). */
const plans = new Map<Function, { rules: number; plan: PropertyPlan[] | null }>();

/**
 * The rules registered per class. class-validator keeps them in a Map it does not export a getter
 * for; its public lookup filters the rules of every class on each call (the cost this avoids).
 * Should its shape ever change, nothing is judged here and class-validator decides.
 */
function registered(): Map<Function, ValidationMetadata[]> | undefined {
  const map = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  return map instanceof Map ? (map as Map<Function, ValidationMetadata[]>) : undefined;
}

/** The class's rules by property, or null when something here cannot be mirrored exactly. */
const REGISTERED = registered();

function planOf(type: Function): PropertyPlan[] | null {
  const all = REGISTERED;
  if (!all) return null;
  const own = all.get(type) ?? [];
  const known = plans.get(type);
  if (known && known.rules === own.length) return known.plan;
  const plan = buildPlan(type, own, all);
  plans.set(type, { rules: own.length, plan });
  return plan;
}

function buildPlan(type: Function, own: ValidationMetadata[], all: Map<Function, ValidationMetadata[]>): PropertyPlan[] | null {
  // Inherited rules follow their own precedence in class-validator: left to it.
  for (const ancestor of all.keys()) if (type.prototype instanceof ancestor) return null;
  const byName = new Map<string, PropertyPlan>();
  for (const m of own) {
    if (m.target !== type || !SUPPORTED.has(m.type) || m.each || (m.groups && m.groups.length > 0)) return null;
    let p = byName.get(m.propertyName);
    if (!p) byName.set(m.propertyName, (p = { name: m.propertyName, targetName: type.name, conditions: [], custom: [], nested: false }));
    if (m.type === ValidationTypes.CONDITIONAL_VALIDATION) p.conditions.push(m.constraints[0] as (object: object, value: unknown) => boolean);
    else if (m.type === ValidationTypes.CUSTOM_VALIDATION) {
      const validateIf = (m as { validateIf?: CustomRule['validateIf'] }).validateIf;
      p.custom.push({ metadata: m, validateIf, constraints: storage.getTargetValidatorConstraints(m.constraintCls) as unknown as Constraint[] });
    }
    else p.nested = true;
  }
  return [...byName.values()];
}

function propertyPasses(object: object, value: unknown, p: PropertyPlan): boolean | undefined {
  // class-validator evaluates every condition and validates only when all of them hold.
  let validate = true;
  for (let i = 0; i < p.conditions.length; i++) validate = p.conditions[i](object, value) && validate;
  if (!validate) return true;
  for (let r = 0; r < p.custom.length; r++) {
    const { metadata: m, validateIf, constraints } = p.custom[r];
    if (validateIf && !validateIf(object, value)) continue;
    for (let c = 0; c < constraints.length; c++) {
      const constraint = constraints[c];
      // validateSync skips asynchronous constraints.
      if (constraint.async) continue;
      const args = { targetName: p.targetName, property: m.propertyName, object, value, constraints: m.constraints };
      const ok = constraint.instance.validate(value, args);
      if (ok instanceof Promise) return undefined;
      if (!ok) return false;
    }
  }
  return p.nested ? nestedPasses(value) : true;
}

/** A nested field's value, as class-validator's nested validation walks it. */
function nestedPasses(value: unknown): boolean | undefined {
  if (value === undefined) return true;
  if (Array.isArray(value)) {
    for (const item of value) {
      const verdict = nestedPasses(item);
      if (verdict !== true) return verdict;
    }
    return true;
  }
  if (value instanceof Set || value instanceof Map || value instanceof Promise) return undefined;
  // A non-object (null included) is refused as "must be either object or array".
  if (!(value instanceof Object)) return false;
  return passesEveryRule(value);
}
