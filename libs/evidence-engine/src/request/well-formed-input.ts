import type { FieldProblem } from '../errors';
import { isPlainObject, pathOf } from '../json';

/** A UTF-16 surrogate without its other half: no UTF-8 text (and no Postgres text or jsonb) holds it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** How many unusable values one answer names at most. */
export const MAX_UNSTORABLE_PROBLEMS = 20;

/** A key as a path may echo it: its lone surrogates shown as U+FFFD, so the answer is valid text. */
const shown = (key: string): string => key.replace(LONE_SURROGATES, '\uFFFD');

/**
 * Every value of a parsed request no adapter can keep as sent, at the path the client sent it:
 * a string or key holding a lone UTF-16 surrogate (JSON `"\ud800"` parses to one), and a number
 * that is not finite (JSON `1e309` parses to Infinity, which JSON.stringify writes as null).
 *
 * Why refused here, for every field, known or not: the request is written to the review log as
 * JSON (jsonb, which refuses a lone surrogate) and as the result's text, so such a value either
 * failed the write after the review was done (a 422 for the request and, in a shared INSERT,
 * for every other review in it) or was stored as something else than the client sent (Infinity
 * as null). The HTTP edge refuses NUL, invalid UTF-8 and unsafe integers before this; these two
 * are what JSON.parse still makes of valid bytes. Iterative, so any depth (CLI input has no
 * depth limit) costs no stack.
 */
export function unstorableValues(input: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // [value, path, whether the path's last key is itself the problem], in the order they are met.
  const stack: Array<[unknown, string, boolean]> = [[input, '', false]];
  // The first ones name the fault; a body of a hundred thousand bad strings must not earn an
  // answer a hundred thousand entries long.
  while (stack.length > 0 && problems.length < MAX_UNSTORABLE_PROBLEMS) {
    const [value, path, badKey] = stack.pop()!;
    // The key is the problem: its value is not looked into (its path could not be echoed as sent).
    if (badKey) problems.push(surrogateProblem(path));
    else if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) problems.push(surrogateProblem(path));
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) problems.push({ path, message: `Expected a finite number at [${path}].` });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], pathOf(path, i), false]);
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push([value[key], pathOf(path, shown(key)), LONE_SURROGATE.test(key)]);
      }
    }
  }
  return problems;
}

const surrogateProblem = (path: string): FieldProblem => ({
  path,
  message: `Expected well-formed text (no lone UTF-16 surrogate) at [${path}].`,
});
