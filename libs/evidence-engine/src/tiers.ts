import { deepFreeze } from './json';

/** An evidence tier: r(s) for a source labelled with it. */
export interface Tier {
  key: string;
  /** 0..100; higher is stronger evidence. */
  rank: number;
  label: string;
  builtin: boolean;
}

export const BUILTIN_TIERS: readonly Tier[] = deepFreeze([
  { key: 'guideline', rank: 100, label: 'Guideline', builtin: true },
  { key: 'peer_reviewed', rank: 80, label: 'Peer-reviewed', builtin: true },
  { key: 'official', rank: 70, label: 'Official source', builtin: true },
  { key: 'preprint', rank: 65, label: 'Preprint', builtin: true },
  { key: 'news', rank: 45, label: 'News', builtin: true },
  { key: 'blog', rank: 30, label: 'Blog', builtin: true },
  { key: 'search_hint', rank: 15, label: 'Search hint', builtin: true },
  { key: 'unverified', rank: 0, label: 'Unverified', builtin: true },
]);

/** The tier of a source nothing vouches for; also where "best cited source" starts. */
export const UNVERIFIED_TIER = 'unverified';

/** Tiers keyed by key, in listing order: rank descending, then key. */
export type TierTable = ReadonlyMap<string, Tier>;

export function tierTable(tiers: Iterable<Tier>): TierTable {
  const sorted = [...tiers].sort(
    (a, b) => b.rank - a.rank || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  return new Map(sorted.map((t) => [t.key, t]));
}
