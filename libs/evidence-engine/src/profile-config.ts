import { isPlainObject, pathOf, ProblemList } from './json';
import { BUILTIN_PROFILES, CheckSettings, Profile } from './profiles';
import { TierTable } from './tiers';
import { ASSERTIVENESS, Assertiveness, CHECK_KINDS, CheckKind, Verdict, VERDICTS } from './types';

/** Config `profiles.<key>`: overrides of a built-in profile, or a whole new profile. */
export interface ProfileConfig {
  label?: string;
  description?: string;
  min_tier?: Record<Assertiveness, string>;
  enabled_checks?: CheckKind[];
  /** Merged per check: `{red_flag: {keywords: [...]}}` keeps red_flag's verdict. */
  checks?: Partial<Record<CheckKind, Partial<CheckSettings>>>;
}

const PROFILE_KEY = /^[a-z][a-z0-9_-]*$/;
const PROFILE_FIELDS = new Set(['label', 'description', 'min_tier', 'enabled_checks', 'checks']);
/** A check whose verdict is not set flags for human review: the cautious choice. */
const UNSET_VERDICT: Verdict = 'flag_for_human_review';

const isCheckKind = (v: unknown): v is CheckKind => (CHECK_KINDS as readonly unknown[]).includes(v);
const isVerdict = (v: unknown): v is Verdict => (VERDICTS as readonly unknown[]).includes(v);

/**
 * Built-in profiles merged with config, each validated. Every bad setting is reported with its
 * key; a reviewer must never run with a half-understood profile.
 */
export function resolveProfiles(
  raw: unknown,
  tiers: TierTable,
  problems: ProblemList,
): Map<string, Profile> {
  const profiles = new Map<string, Profile>(
    BUILTIN_PROFILES.map((p) => [p.key, structuredClone(p)]),
  );
  if (raw !== undefined && !isPlainObject(raw)) {
    problems.add('profiles', 'Config [profiles] must be an object of profile key to settings.');
  } else if (raw !== undefined) {
    for (const [key, change] of Object.entries(raw)) {
      const merged = mergeProfile(key, profiles.get(key), change, tiers, problems);
      if (merged) profiles.set(key, merged);
    }
  }
  const sorted = [...profiles.keys()].sort();
  return new Map(sorted.map((k) => [k, profiles.get(k)!]));
}

function mergeProfile(
  key: string,
  base: Profile | undefined,
  change: unknown,
  tiers: TierTable,
  problems: ProblemList,
): Profile | null {
  const at = pathOf('profiles', key);
  const before = problems.items.length;
  if (!PROFILE_KEY.test(key)) {
    problems.add(
      at,
      `Config [${at}]: a profile key must be lowercase letters, digits, "-" and "_".`,
    );
    return null;
  }
  if (!isPlainObject(change)) {
    problems.add(at, `Config [${at}] must be an object.`);
    return null;
  }
  for (const field of Object.keys(change)) {
    if (!PROFILE_FIELDS.has(field))
      problems.add(pathOf(at, field), `Config [${pathOf(at, field)}] is not a profile setting.`);
  }
  const text = (field: 'label' | 'description', fallback: string, allowEmpty: boolean): string => {
    const v = change[field];
    if (v === undefined) return fallback;
    if (typeof v !== 'string' || (!allowEmpty && v.trim() === '')) {
      problems.add(
        pathOf(at, field),
        `Config [${pathOf(at, field)}] must be a ${allowEmpty ? '' : 'non-empty '}string.`,
      );
      return fallback;
    }
    return v;
  };
  const profile: Profile = {
    key,
    label: text('label', base?.label ?? key, false),
    description: text('description', base?.description ?? '', true),
    min_tier: minTier(change['min_tier'], base, at, tiers, problems),
    enabled_checks: enabledChecks(change['enabled_checks'], base, at, problems),
    checks: checks(change['checks'], base, at, problems),
  };
  for (const kind of profile.enabled_checks) {
    const settings = (profile.checks[kind] ??= { verdict: UNSET_VERDICT });
    if (kind !== 'evidence_strength' && !settings.keywords?.length) {
      const kwPath = pathOf(pathOf(pathOf(at, 'checks'), kind), 'keywords');
      problems.add(
        kwPath,
        `Config [${kwPath}]: the enabled keyword check [${kind}] needs at least one keyword.`,
      );
    }
  }
  return problems.items.length === before ? profile : null;
}

function minTier(
  raw: unknown,
  base: Profile | undefined,
  at: string,
  tiers: TierTable,
  problems: ProblemList,
) {
  const path = pathOf(at, 'min_tier');
  if (raw === undefined) {
    if (!base) problems.add(path, `Config [${path}] is required for a new profile.`);
    return {
      ...(base?.min_tier ?? {
        definitive: 'unverified',
        likely: 'unverified',
        tentative: 'unverified',
      }),
    };
  }
  const out = {} as Record<Assertiveness, string>;
  if (!isPlainObject(raw)) {
    problems.add(path, `Config [${path}] must map definitive, likely and tentative to tier keys.`);
    return out;
  }
  for (const level of Object.keys(raw)) {
    if (!(ASSERTIVENESS as readonly string[]).includes(level)) {
      problems.add(
        pathOf(path, level),
        `Config [${pathOf(path, level)}] is not an assertiveness level.`,
      );
    }
  }
  for (const level of ASSERTIVENESS) {
    const tier = raw[level];
    if (typeof tier !== 'string' || !tiers.has(tier)) {
      const what =
        tier === undefined ? 'is missing' : `names no configured tier (${JSON.stringify(tier)})`;
      problems.add(
        pathOf(path, level),
        `Config [${pathOf(path, level)}] ${what}; it must be a tier key.`,
      );
    } else out[level] = tier;
  }
  return out;
}

function enabledChecks(
  raw: unknown,
  base: Profile | undefined,
  at: string,
  problems: ProblemList,
): CheckKind[] {
  const path = pathOf(at, 'enabled_checks');
  if (raw === undefined) {
    if (!base) problems.add(path, `Config [${path}] is required for a new profile.`);
    return [...(base?.enabled_checks ?? [])];
  }
  if (!Array.isArray(raw)) {
    problems.add(path, `Config [${path}] must be a list of check kinds.`);
    return [];
  }
  raw.forEach((kind, i) => {
    if (!isCheckKind(kind))
      problems.add(
        pathOf(path, i),
        `Config [${pathOf(path, i)}] is not a check kind (${JSON.stringify(kind)}).`,
      );
  });
  // Checks always run in the fixed order, so the list is kept in that order too.
  return CHECK_KINDS.filter((kind) => raw.includes(kind));
}

function checks(
  raw: unknown,
  base: Profile | undefined,
  at: string,
  problems: ProblemList,
): Profile['checks'] {
  const out: Profile['checks'] = structuredClone(base?.checks ?? {});
  const path = pathOf(at, 'checks');
  if (raw === undefined) return out;
  if (!isPlainObject(raw)) {
    problems.add(path, `Config [${path}] must be an object of check kind to settings.`);
    return out;
  }
  for (const [kind, settings] of Object.entries(raw)) {
    const checkPath = pathOf(path, kind);
    if (!isCheckKind(kind)) {
      problems.add(checkPath, `Config [${checkPath}] is not a check kind.`);
      continue;
    }
    if (!isPlainObject(settings)) {
      problems.add(
        checkPath,
        `Config [${checkPath}] must be an object with verdict${kind === 'evidence_strength' ? '' : ' and keywords'}.`,
      );
      continue;
    }
    const merged: CheckSettings = { ...(out[kind] ?? { verdict: UNSET_VERDICT }) };
    for (const [field, value] of Object.entries(settings)) {
      const fieldPath = pathOf(checkPath, field);
      if (field === 'verdict') {
        if (isVerdict(value)) merged.verdict = value;
        else
          problems.add(fieldPath, `Config [${fieldPath}] must be one of ${VERDICTS.join(', ')}.`);
      } else if (field === 'keywords' && kind !== 'evidence_strength') {
        const keywords = validKeywords(value, fieldPath, problems);
        if (keywords) merged.keywords = keywords;
      } else {
        problems.add(fieldPath, `Config [${fieldPath}] is not a setting of the ${kind} check.`);
      }
    }
    out[kind] = merged;
  }
  return out;
}

function validKeywords(raw: unknown, path: string, problems: ProblemList): string[] | null {
  if (!Array.isArray(raw)) {
    problems.add(path, `Config [${path}] must be a list of keywords.`);
    return null;
  }
  let ok = true;
  raw.forEach((k, i) => {
    if (typeof k !== 'string' || k.trim() === '' || k !== k.trim()) {
      problems.add(
        pathOf(path, i),
        `Config [${pathOf(path, i)}] is a malformed keyword (${JSON.stringify(k)}); use trimmed, non-empty text.`,
      );
      ok = false;
    }
  });
  return ok ? (raw as string[]) : null;
}
