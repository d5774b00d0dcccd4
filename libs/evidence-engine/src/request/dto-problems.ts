import type { Type } from '@nestjs/common';
import { ValidationError, validateSync } from 'class-validator';
import type { FieldProblem } from '../errors';
import { pathOf } from '../json';
import { instantiate } from './dto-instance';
import { passesEveryRule } from './dto-verdict';
import { AT_PATH, ITEM_RULE, ItemRule } from './field-rules';

const OPTIONS = {
  // Instances come from instantiate(), which keeps only declared fields: nothing to strip here.
  whitelist: false,
  // A nested object that is not an instance of its DTO would be refused as unknown; every rule
  // that lets an object in has already said what it expects there.
  forbidUnknownValues: false,
  // The list rules' problems are placed at their items, so the list itself is needed.
  validationError: { target: false, value: true },
};

export interface DtoValidation<T> {
  /**
   * The validated input (meaningful only when there are no problems): the request as sent when
   * its rules' own checks passed it, else the DTO instance class-validator judged. Read only the
   * DTO's fields: as sent, it also holds any unknown fields.
   */
  value: T;
  /** Every problem, each at its field's path, in the order the DTO declares its fields. */
  problems: FieldProblem[];
}

/**
 * Validates `plain` against `dto` with class-validator and lists its problems as field problems.
 * `at` places top-level fields elsewhere than under their own name (`{ artifact: '' }` when the
 * client sent the artifact's fields at the top level).
 */
export function validateAgainst<T extends object>(
  dto: Type<T>,
  plain: Record<string, unknown>,
  at: Record<string, string> = {},
): DtoValidation<T> {
  // Almost every request is valid: its rules' own checks say so without building instances or
  // class-validator's error tree.
  if (passesEveryRule(dto, plain) === true) return { value: plain as T, problems: [] };
  const value = instantiate(dto, plain);
  const problems: FieldProblem[] = [];
  for (const error of validateSync(value, OPTIONS)) {
    collect(error, at[error.property] ?? error.property, problems);
  }
  return { value, problems };
}

const problem = (path: string, message: string): FieldProblem => ({
  path,
  message: message.split(AT_PATH).join(path),
});

/**
 * One field's problem, or its inside's. A field breaks at most one rule (field-rules.ts), and a
 * field whose own rule is broken is not looked into: class-validator's nested verdict on a value
 * of the wrong shape ("must be either object or array") adds nothing the rule has not said.
 */
function collect(error: ValidationError, path: string, out: FieldProblem[]): void {
  const [broken] = Object.keys(error.constraints ?? {});
  const itemRule = broken
    ? (error.contexts?.[broken]?.[ITEM_RULE] as ItemRule | undefined)
    : undefined;
  if (itemRule && Array.isArray(error.value) && error.value.length > itemRule.maxItems) out.push(problem(path, itemRule.tooManyMessage));
  else if (itemRule && Array.isArray(error.value)) collectItems(error, error.value, itemRule, path, out);
  else if (broken) out.push(problem(path, error.constraints![broken]!));
  else for (const child of error.children ?? []) collect(child, pathOf(path, child.property), out);
}

/** A list rule broken by some items: each bad item is a problem, the others' insides in order. */
function collectItems(
  error: ValidationError,
  items: unknown[],
  rule: ItemRule,
  path: string,
  out: FieldProblem[],
): void {
  const inside = new Map((error.children ?? []).map((child) => [child.property, child]));
  items.forEach((item, index) => {
    const at = pathOf(path, index);
    const child = inside.get(String(index));
    if (!rule.test(item)) out.push(problem(at, rule.message(item)));
    else if (child) collect(child, at, out);
  });
}
