import { KeysetPage, KeysetQuery, TimeWindow } from '../ports/keyset-page';

/** Newest first, ids below the cursor, `limit` rows and whether more exist (fetching limit + 1). */
export function keysetPage<T extends { id: number }>(rows: readonly T[], query: KeysetQuery, keep: (row: T) => boolean): KeysetPage<T> {
  const limit = Math.min(200, Math.max(1, Math.floor(query.limit)));
  const page: T[] = [];
  for (let i = rows.length - 1; i >= 0 && page.length <= limit; i--) {
    const row = rows[i];
    if (query.cursor !== undefined && row.id >= query.cursor) continue;
    if (keep(row)) page.push(row);
  }
  const more = page.length > limit;
  const entries = page.slice(0, limit);
  return { entries, next_cursor: more ? entries[entries.length - 1].id : null };
}

export function inWindow(at: Date, window: TimeWindow): boolean {
  return (!window.from || at >= window.from) && (!window.to || at <= window.to);
}

/** Deep copy for values handed out of a store (callers must not mutate stored rows). */
export const copy = <T>(value: T): T => structuredClone(value);
