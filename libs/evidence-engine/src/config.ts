import { EvidenceError } from './errors';
import { isPlainObject, pathOf, ProblemList, wholeNumber } from './json';
import { Profile } from './profiles';
import { ProfileConfig, resolveProfiles } from './profile-config';
import { TierConfig, resolveTiers } from './tier-config';
import { TierHint, resolveTierHints } from './tier-hints';
import { TierTable } from './tiers';
import { BudgetCaps } from './types';

/** Engine configuration as a host writes it (e.g. parsed from JSON); every key is optional. */
export interface EngineConfig {
  /** The profile used when a request names none. Default `default`. */
  default_profile?: string;
  tiers?: TierConfig;
  /** Domain (or `*.domain`) → tier key, tried in the order written. */
  tier_hints?: Record<string, string>;
  profiles?: Record<string, ProfileConfig>;
  /** Default and ceiling of each review's budget; a request may only lower them. */
  budget?: Partial<BudgetCaps>;
  /** The LLM step runs only when this is true (default false: no calls, no tokens). */
  llm?: { enabled?: boolean };
}

/** The config after validation, with every default filled in. */
export interface ResolvedEngineConfig {
  defaultProfile: string;
  tiers: TierTable;
  hints: TierHint[];
  profiles: ReadonlyMap<string, Profile>;
  budget: BudgetCaps;
  llmEnabled: boolean;
}

export const DEFAULT_BUDGET: Readonly<BudgetCaps> = Object.freeze({
  max_llm_calls: 3,
  max_tokens: 6000,
  max_heavy_checks: 8,
  max_wall_seconds: 30,
});

const CONFIG_KEYS = new Set([
  'default_profile',
  'tiers',
  'tier_hints',
  'profiles',
  'budget',
  'llm',
]);

/** Validates a whole config, reporting every bad key at once (EvidenceConfigError), or resolves it. */
export function resolveEngineConfig(raw: unknown = {}): ResolvedEngineConfig {
  const problems = new ProblemList();
  const config = isPlainObject(raw) ? raw : {};
  if (!isPlainObject(raw)) problems.add('', 'Config must be an object.');
  for (const key of Object.keys(config)) {
    if (!CONFIG_KEYS.has(key))
      problems.add(key, `Config [${key}] is not an evidence engine setting.`);
  }
  const tiers = resolveTiers(config['tiers'], problems);
  const hints = resolveTierHints(config['tier_hints'], tiers, problems);
  const profiles = resolveProfiles(config['profiles'], tiers, problems);
  const defaultProfile = config['default_profile'] ?? 'default';
  if (typeof defaultProfile !== 'string' || !profiles.has(defaultProfile)) {
    problems.add(
      'default_profile',
      `Config [default_profile] must name a configured profile (${JSON.stringify(defaultProfile)} is not one).`,
    );
  }
  const resolved: ResolvedEngineConfig = {
    defaultProfile: defaultProfile as string,
    tiers,
    hints,
    profiles,
    budget: resolveBudgetConfig(config['budget'], problems),
    llmEnabled: resolveLlmEnabled(config['llm'], problems),
  };
  if (!problems.empty) throw EvidenceError.config(problems.items);
  return resolved;
}

function resolveBudgetConfig(raw: unknown, problems: ProblemList): BudgetCaps {
  const budget = { ...DEFAULT_BUDGET };
  if (raw === undefined) return budget;
  if (!isPlainObject(raw)) {
    problems.add('budget', 'Config [budget] must be an object of caps.');
    return budget;
  }
  for (const [key, value] of Object.entries(raw)) {
    const at = pathOf('budget', key);
    if (!(key in DEFAULT_BUDGET)) {
      problems.add(at, `Config [${at}] is not a budget cap.`);
      continue;
    }
    const n = wholeNumber(value);
    if (n === null) problems.add(at, `Config [${at}] must be a whole number, zero or greater.`);
    else budget[key as keyof BudgetCaps] = n;
  }
  return budget;
}

function resolveLlmEnabled(raw: unknown, problems: ProblemList): boolean {
  if (raw === undefined) return false;
  if (!isPlainObject(raw)) {
    problems.add('llm', 'Config [llm] must be an object.');
    return false;
  }
  for (const key of Object.keys(raw)) {
    if (key !== 'enabled')
      problems.add(pathOf('llm', key), `Config [${pathOf('llm', key)}] is not an LLM setting.`);
  }
  const enabled = raw['enabled'] ?? false;
  if (typeof enabled !== 'boolean') {
    problems.add('llm.enabled', 'Config [llm.enabled] must be a boolean.');
    return false;
  }
  return enabled;
}
