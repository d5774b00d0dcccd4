import { LiteralScanner } from './literal-scanner';
import { LiteralRequirement, requiredLiterals } from './required-literals';
import { Ruleset } from './ruleset';

/**
 * Which rules of a ruleset could match a text. A rule with a literal requirement (see
 * required-literals.ts) is left out when the text does not meet it: it cannot match, so running it
 * would only cost time. Every other rule (no usable literal, a compile error to report, a
 * case-insensitive flag) is always a candidate. One scan of the text serves all rules.
 *
 * Why this cannot hang the process, whatever the patterns and prompts:
 * - no user pattern is executed here; `new RegExp` only parses (V8 compiles a regex's matcher on
 *   its first run, which happens in the matcher thread);
 * - reading a pattern is bounded by its length and a fixed work budget (required-literals.ts), once
 *   per ruleset;
 * - the scan is one table step per code unit of the text (literal-scanner.ts), with no
 *   backtracking, so its cost is linear in the prompt whatever the literals;
 * - a rule is skipped only when it provably cannot match; every rule that may match runs in the
 *   matcher thread under its time budget, as before.
 * So the reported first match is the one running every rule in order would give.
 */
export interface RulePrefilter {
  /** Rule indices from `from` on, in config order, that have to run over `text`. */
  candidates(text: string, from: number): number[];
}

function compiles(source: string, flags: string): boolean {
  try {
    // Parsing only (V8 compiles the matcher lazily), linear in the pattern's length.
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

type Check = (present: Uint8Array) => boolean;

/** Turns a requirement into a test over the scan's result; each `any` becomes one scanner group. */
function checkOf(requirement: LiteralRequirement, groups: string[][], groupByKey: Map<string, number>): Check {
  if ('any' in requirement) {
    const key = requirement.any.join('\u0000');
    let group = groupByKey.get(key);
    if (group === undefined) {
      group = groups.push([...requirement.any]) - 1;
      groupByKey.set(key, group);
    }
    const g = group;
    return (present) => present[g] === 1;
  }
  if ('all' in requirement) {
    const parts = requirement.all.map((r) => checkOf(r, groups, groupByKey));
    return (present) => parts.every((check) => check(present));
  }
  const parts = requirement.either.map((r) => checkOf(r, groups, groupByKey));
  return (present) => parts.some((check) => check(present));
}

function buildPrefilter(ruleset: Ruleset): RulePrefilter {
  const count = ruleset.rules.length;
  /** Rule index -> its test, or null for rules that always run. */
  const checks: Array<Check | null> = new Array(count).fill(null);
  const groups: string[][] = [];
  const groupByKey = new Map<string, number>();
  ruleset.rules.forEach((rule, i) => {
    // A rule that does not compile must still run, so that its error is reported.
    if (rule.error !== undefined || !compiles(rule.source, rule.flags)) return;
    const requirement = requiredLiterals(rule.source, rule.flags);
    if (requirement) checks[i] = checkOf(requirement, groups, groupByKey);
  });
  let scanner: LiteralScanner | null = null;
  try {
    scanner = groups.length ? new LiteralScanner(groups) : null;
  } catch {
    // Too many literals for a compact automaton: every rule runs.
  }
  const everyRuleFrom = (from: number) => Array.from({ length: Math.max(0, count - from) }, (_, k) => from + k);
  if (!scanner) return { candidates: (_text, from) => everyRuleFrom(from) };
  const literalScanner = scanner;
  return {
    candidates(text, from) {
      const present = literalScanner.scan(text);
      const out: number[] = [];
      for (let i = from; i < count; i++) {
        const check = checks[i];
        if (check === null || check(present)) out.push(i);
      }
      return out;
    },
  };
}

/** Rulesets are immutable once built (see rulesetFor), so one prefilter per ruleset object. */
const byRuleset = new WeakMap<Ruleset, RulePrefilter>();

export function prefilterFor(ruleset: Ruleset): RulePrefilter {
  let prefilter = byRuleset.get(ruleset);
  if (!prefilter) {
    prefilter = buildPrefilter(ruleset);
    byRuleset.set(ruleset, prefilter);
  }
  return prefilter;
}
