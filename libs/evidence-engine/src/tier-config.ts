import { isPlainObject, pathOf, ProblemList } from './json';
import { BUILTIN_TIERS, Tier, tierTable, TierTable } from './tiers';

/** Config `tiers`: change a built-in's rank or label, or add a tier (both fields then required). */
export type TierConfig = Record<string, { rank?: number; label?: string }>;

const TIER_KEY = /^[a-z][a-z0-9_]*$/;
const TIER_FIELDS = new Set(['rank', 'label']);

export function resolveTiers(raw: unknown, problems: ProblemList): TierTable {
  const tiers = new Map<string, Tier>(BUILTIN_TIERS.map((t) => [t.key, { ...t }]));
  if (raw === undefined) return tierTable(tiers.values());
  if (!isPlainObject(raw)) {
    problems.add('tiers', 'Config [tiers] must be an object of tier key to {rank, label}.');
    return tierTable(tiers.values());
  }
  for (const [key, change] of Object.entries(raw)) {
    const at = pathOf('tiers', key);
    if (!TIER_KEY.test(key)) {
      problems.add(
        at,
        `Config [${at}]: a tier key must be lowercase letters, digits and underscores.`,
      );
      continue;
    }
    if (!isPlainObject(change)) {
      problems.add(at, `Config [${at}] must be an object with rank and label.`);
      continue;
    }
    for (const field of Object.keys(change)) {
      if (!TIER_FIELDS.has(field))
        problems.add(pathOf(at, field), `Config [${pathOf(at, field)}] is not a tier setting.`);
    }
    const existing = tiers.get(key);
    const rank = 'rank' in change ? change['rank'] : existing?.rank;
    const label = 'label' in change ? change['label'] : existing?.label;
    let valid = true;
    if (typeof rank !== 'number' || !Number.isInteger(rank) || rank < 0 || rank > 100) {
      problems.add(
        pathOf(at, 'rank'),
        `Config [${pathOf(at, 'rank')}] must be a whole number from 0 to 100.`,
      );
      valid = false;
    }
    if (typeof label !== 'string' || label.trim() === '') {
      problems.add(
        pathOf(at, 'label'),
        `Config [${pathOf(at, 'label')}] must be a non-empty string.`,
      );
      valid = false;
    }
    if (valid)
      tiers.set(key, {
        key,
        rank: rank as number,
        label: label as string,
        builtin: existing?.builtin ?? false,
      });
  }
  return tierTable(tiers.values());
}
