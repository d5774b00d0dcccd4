import { createHash } from 'node:crypto';
import { compileDelimitedPattern } from './delimited-pattern';

export interface MatcherRule {
  id: string;
  source: string;
  flags: string;
  /** Set when the pattern cannot be compiled: matching reports it as this rule's error. */
  error?: string;
}

/** The active rules in config order (the first match reports), identified by `version`. */
export interface Ruleset {
  version: string;
  rules: MatcherRule[];
}

/**
 * A stable hash of the rules in config order: it changes whenever a rule is added, removed,
 * renamed, edited or moved (order decides which rule reports a prompt).
 */
export function rulesetVersion(patterns: Readonly<Record<string, string>>): string {
  return createHash('sha256').update(JSON.stringify(Object.entries(patterns))).digest('hex').slice(0, 16);
}

const PROPERTY_CLOSED_UNDER_CASE = /\\p\{(?:L|N|Letter|Number)\}/g;

/**
 * On casefolded, NFKC-normalized text the `i` flag only costs time (V8's Unicode case-insensitive
 * matching is far slower), but dropping it is equivalent only for lowercase Latin patterns: no A–Z
 * outside `\p{L}`/`\p{N}` (so no \S, \W, \D, \B, \P and no uppercase literal), no \x or \u escapes
 * (they could spell an uppercase letter), and nothing beyond Latin Extended-A except µ, whose case
 * partner is Greek.
 */
export function caseInsensitiveFlagRedundant(source: string, flags: string): boolean {
  if (!flags.includes('i')) return false;
  const rest = source.replace(PROPERTY_CLOSED_UNDER_CASE, '');
  if (/[A-Z]/.test(rest) || /\\[xu]/.test(rest)) return false;
  for (const c of rest) {
    const cp = c.codePointAt(0)!;
    if (cp > 0x17f || cp === 0xb5) return false;
  }
  return true;
}

interface CachedRuleset {
  version: string;
  plain?: Ruleset;
  casefolded?: Ruleset;
}

/** Settings objects live long and prompts arrive constantly: compile once per patterns object. */
const byPatterns = new WeakMap<object, CachedRuleset>();

function compile(patterns: Readonly<Record<string, string>>, version: string, casefolded: boolean): Ruleset {
  const rules = Object.entries(patterns).map(([id, pattern]): MatcherRule => {
    try {
      const { source, flags } = compileDelimitedPattern(pattern);
      const dropI = casefolded && caseInsensitiveFlagRedundant(source, flags);
      return { id, source, flags: dropI ? flags.replace('i', '') : flags };
    } catch (e) {
      return { id, source: '', flags: '', error: (e as Error).message };
    }
  });
  return { version, rules };
}

/**
 * The compiled ruleset for a patterns map. `casefolded` says the text is NFKC-normalized and
 * lowercased, which allows dropping redundant `i` flags. A pattern that does not compile (settings
 * validation refuses those, but a host may build settings by hand) becomes an erroring rule, so the
 * screen fails closed or open on it like on any other match error. Maps are treated as immutable.
 */
export function rulesetFor(patterns: Readonly<Record<string, string>>, casefolded: boolean): Ruleset {
  let cached = byPatterns.get(patterns);
  if (!cached) {
    cached = { version: rulesetVersion(patterns) };
    byPatterns.set(patterns, cached);
  }
  const slot = casefolded ? 'casefolded' : 'plain';
  return (cached[slot] ??= compile(patterns, cached.version, casefolded));
}
