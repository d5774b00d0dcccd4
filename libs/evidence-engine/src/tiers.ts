import { EvidenceError } from './errors';

export interface Tier {
  key: string;
  rank: number;
  label: string;
  builtin: boolean;
}

export const BUILTIN_TIERS: readonly Tier[] = [
  { key: 'guideline', rank: 100, label: 'Guideline', builtin: true },
  { key: 'peer_reviewed', rank: 80, label: 'Peer-reviewed', builtin: true },
  { key: 'official', rank: 70, label: 'Official source', builtin: true },
  { key: 'preprint', rank: 65, label: 'Preprint', builtin: true },
  { key: 'news', rank: 45, label: 'News', builtin: true },
  { key: 'blog', rank: 30, label: 'Blog', builtin: true },
  { key: 'search_hint', rank: 15, label: 'Search hint', builtin: true },
  { key: 'unverified', rank: 0, label: 'Unverified', builtin: true },
];

export type TierOverrides = Record<string, { rank?: number; label?: string }>;

/** Built-in tiers with config changes and additions; sorted by rank descending, then key. */
export function buildTiers(overrides: TierOverrides = {}): Map<string, Tier> {
  const tiers = new Map(BUILTIN_TIERS.map((t) => [t.key, { ...t }]));
  for (const [key, change] of Object.entries(overrides)) {
    const existing = tiers.get(key);
    const rank = change.rank ?? existing?.rank;
    const label = change.label ?? existing?.label;
    if (!/^[a-z][a-z0-9_]*$/.test(key)) throw EvidenceError.config(`tiers.${key}: a tier key must be lowercase snake_case`);
    if (rank === undefined || rank === null || !Number.isInteger(rank) || rank < 0 || rank > 100) {
      throw EvidenceError.config(`tiers.${key}.rank must be an integer from 0 to 100`);
    }
    if (typeof label !== 'string' || label.trim() === '') throw EvidenceError.config(`tiers.${key}.label must be a non-empty string`);
    tiers.set(key, { key, rank, label, builtin: existing?.builtin ?? false });
  }
  return new Map([...tiers.values()].sort((a, b) => b.rank - a.rank || a.key.localeCompare(b.key)).map((t) => [t.key, t]));
}
