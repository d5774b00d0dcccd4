import { AST, RegExpParser } from '@eslint-community/regexpp';

/**
 * Literal prefiltering for screening rules: a condition on which strings a text contains that
 * every text a pattern matches satisfies. A text that fails it cannot be matched, so the rule need
 * not run at all. This is a static reading of the pattern; nothing of the pattern is executed.
 *
 * Soundness rests on two per-node facts, computed bottom-up:
 * - `exact`: a finite set holding every string the node can consume (null when unknown or large);
 * - `required`: a condition that a text the node matches in satisfies (null when none is known):
 *   contains one of some strings (`any`), satisfies each of several conditions (`all`: a sequence
 *   consumes what each of its elements consumes), or one of several (`either`: an alternation).
 * Negative lookarounds, `^`, `$` and `\b` consume nothing, so their exact set is {""}; a positive
 * lookaround consumes nothing either but what it sees is in the text, so it adds its condition
 * (and, its exact set being left unknown, ends a run of literal text); a backreference, a large
 * class or `.` is unknown. Every step only ever drops information, never invents it.
 */
export type LiteralRequirement =
  | { any: readonly string[] }
  | { all: readonly LiteralRequirement[] }
  | { either: readonly LiteralRequirement[] };

/** Largest exact set kept (cross products of short alternations such as `r[èe]gles?`). */
const MAX_EXACT = 64;
/** Longest exact string built: longer runs of literal text are split, so analysis stays linear. */
const MAX_EXACT_LENGTH = 64;
/** Largest character class expanded into single-character strings. */
const MAX_CLASS = 16;

type Strings = readonly string[] | null;
interface Literals {
  exact: Strings;
  required: LiteralRequirement | null;
}

/**
 * Work allowed for reading one pattern (strings built or compared). The analysis runs on the main
 * thread when a ruleset is first used; a pattern built to make it slow is given up on (the rule
 * then always runs, in the bounded thread) instead of stalling screening.
 */
const WORK_BUDGET = 400_000;
let workLeft = WORK_BUDGET;
class OverBudget extends Error {}
function spend(units: number): void {
  workLeft -= units;
  if (workLeft < 0) throw new OverBudget('pattern too costly to analyse');
}

const UNKNOWN: Literals = { exact: null, required: null };
const EMPTY: Literals = { exact: [''], required: null };

/** Most strings one condition is scanned for (unions over many alternatives). */
const MAX_ANY = 512;

/** Strings one of which must occur; useless with the empty string (it is in every text). */
function anyOf(set: Strings): LiteralRequirement | null {
  if (!set || set.length === 0 || set.length > MAX_ANY || set.includes('')) return null;
  spend(set.length * set.length);
  // A string containing another one of the set adds nothing: the shorter one is there too.
  const sorted = [...set].sort((a, b) => a.length - b.length);
  return { any: sorted.filter((x, i) => !sorted.slice(0, i).some((shorter) => x.includes(shorter))) };
}

function union(sets: Strings[]): Strings {
  const out = new Set<string>();
  for (const set of sets) {
    if (!set) return null;
    spend(set.length);
    for (const x of set) out.add(x);
    if (out.size > MAX_EXACT) return null;
  }
  return [...out];
}

function product(a: readonly string[], b: readonly string[]): Strings {
  if (a.length * b.length > MAX_EXACT) return null;
  spend(a.length * b.length);
  const out = new Set<string>();
  for (const x of a) {
    for (const y of b) {
      if (x.length + y.length > MAX_EXACT_LENGTH) return null;
      out.add(x + y);
    }
  }
  return [...out];
}

function ofAlternatives(alternatives: AST.Alternative[]): Literals {
  const parts = alternatives.map(ofSequence);
  const exact = union(parts.map((p) => p.exact));
  if (exact) return { exact, required: anyOf(exact) };
  if (parts.some((p) => p.required === null)) return UNKNOWN;
  const either = parts.map((p) => p.required!);
  return { exact: null, required: either.length === 1 ? either[0] : { either } };
}

/**
 * A sequence: its exact set is the cross product of its elements' exact sets. It requires what
 * each inexact element requires, and for each run of consecutive exact elements one of the run's
 * strings (a run of literal characters spells a word).
 */
function ofSequence(alternative: AST.Alternative): Literals {
  const all: LiteralRequirement[] = [];
  let whole: Strings = [''];
  let run: readonly string[] = [''];
  const endRun = () => {
    const required = anyOf(run);
    if (required) all.push(required);
    run = [''];
  };
  for (const part of alternative.elements.map(ofElement)) {
    whole = whole && part.exact ? product(whole, part.exact) : null;
    if (part.exact) {
      const extended = product(run, part.exact);
      if (!extended) endRun();
      run = extended ?? part.exact;
    } else {
      endRun();
      if (part.required) all.push(part.required);
    }
  }
  endRun();
  return { exact: whole, required: all.length === 0 ? null : all.length === 1 ? all[0] : { all } };
}

function ofQuantifier(q: AST.Quantifier): Literals {
  const inner = ofElement(q.element);
  let exact: Strings = null;
  if (inner.exact && q.max <= MAX_EXACT) {
    const options: string[][] = [];
    let power: Strings = [''];
    for (let k = 0; k <= q.max && power; k++) {
      if (k >= q.min) options.push([...power]);
      if (k < q.max) power = product(power, inner.exact);
    }
    exact = power ? union(options) : null;
  }
  return { exact, required: q.min >= 1 ? inner.required : null };
}

function ofClass(c: AST.CharacterClass): Literals {
  if (c.negate || c.unicodeSets) return UNKNOWN;
  const chars: string[] = [];
  for (const e of c.elements) {
    if (e.type === 'Character') {
      chars.push(String.fromCodePoint(e.value));
    } else if (e.type === 'CharacterClassRange' && e.max.value - e.min.value < MAX_CLASS) {
      for (let cp = e.min.value; cp <= e.max.value; cp++) chars.push(String.fromCodePoint(cp));
    } else {
      return UNKNOWN;
    }
    if (chars.length > MAX_CLASS) return UNKNOWN;
  }
  const exact = [...new Set(chars)];
  return exact.length ? { exact, required: anyOf(exact) } : UNKNOWN;
}

function ofElement(e: AST.Element): Literals {
  switch (e.type) {
    case 'Character': {
      const c = String.fromCodePoint(e.value);
      return { exact: [c], required: { any: [c] } };
    }
    case 'Assertion':
      if ((e.kind === 'lookahead' || e.kind === 'lookbehind') && !e.negate) {
        return { exact: null, required: ofAlternatives(e.alternatives).required };
      }
      return EMPTY;
    case 'CapturingGroup':
      return ofAlternatives(e.alternatives);
    case 'Group':
      // Inline modifiers such as (?i:…) change how the group's characters match.
      return e.modifiers ? UNKNOWN : ofAlternatives(e.alternatives);
    case 'Quantifier':
      return ofQuantifier(e);
    case 'CharacterClass':
      return ofClass(e);
    default:
      return UNKNOWN;
  }
}

/** Conditions kept per sequence: each one is scanned for, and more rarely rule out more. */
const KEPT_CONJUNCTS = 3;
/** Strings shorter than this ("a", "de") occur in nearly every text: scanning for them is waste. */
const MIN_STRENGTH = 3;
/**
 * Longest string scanned for: a text containing "instructions" contains "instru", so cutting a
 * string short keeps the requirement sound, and the scanner's table stays small enough to be fast.
 */
const MAX_SCANNED = 6;

/** A requirement and how rare texts meeting it are, roughly: the shortest string it rests on. */
interface Pruned {
  r: LiteralRequirement;
  strength: number;
}

/**
 * Drops conditions that nearly every text meets and keeps the rarest three of each sequence.
 * Dropping a condition of `all`, or giving up on an `either` with a weak branch, only weakens the
 * requirement, so it stays sound; fewer, shorter strings make the scan cheaper and hit less often.
 */
function prune(r: LiteralRequirement): Pruned | null {
  if ('any' in r) {
    const any = anyOf(r.any.map((x) => x.slice(0, MAX_SCANNED)));
    const strength = any && 'any' in any ? Math.min(...any.any.map((x) => x.length)) : 0;
    return any && strength >= MIN_STRENGTH ? { r: any, strength } : null;
  }
  if ('either' in r) {
    const branches: Pruned[] = [];
    for (const branch of r.either) {
      const pruned = prune(branch);
      if (!pruned) return null;
      branches.push(pruned);
    }
    // Branches that each need one of some strings need one of all those strings.
    const strings = branches.flatMap(({ r: b }) => ('any' in b ? b.any : []));
    const merged = strings.length ? anyOf(strings) : null;
    if (strings.length && !merged) return null;
    const rest = branches.filter(({ r: b }) => !('any' in b)).map(({ r: b }) => b);
    const either = merged ? [merged, ...rest] : rest;
    return { r: either.length === 1 ? either[0] : { either }, strength: Math.min(...branches.map((b) => b.strength)) };
  }
  const kept = r.all
    .map(prune)
    .filter((c): c is Pruned => c !== null)
    .sort((a, b) => b.strength - a.strength)
    .slice(0, KEPT_CONJUNCTS);
  if (kept.length === 0) return null;
  return { r: kept.length === 1 ? kept[0].r : { all: kept.map((c) => c.r) }, strength: kept[0].strength };
}

const parser = new RegExpParser({ strict: true });

/**
 * What every text matched by `new RegExp(source, flags)` contains, or null when the pattern gives
 * no usable guarantee (or is not case-sensitive Unicode mode: with `i` a literal also matches its
 * case variants, and without `u` the syntax reads differently).
 */
export function requiredLiterals(source: string, flags: string): LiteralRequirement | null {
  if (!flags.includes('u') || /[iv]/.test(flags)) return null;
  workLeft = WORK_BUDGET;
  try {
    const pattern = parser.parsePattern(source, 0, source.length, { unicode: true });
    const required = ofAlternatives(pattern.alternatives).required;
    return required && (prune(required)?.r ?? null);
  } catch {
    // Unparsable, nested too deeply for the stack, or over the work budget: no guarantee, so the
    // rule always runs.
    return null;
  }
}
