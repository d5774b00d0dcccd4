import { KeysetPage } from '../ports/keyset-page';

/** Page size clamped to 1..200, as every keyset list allows. */
export function keysetLimit(limit: number): number {
  return Math.min(200, Math.max(1, Math.floor(Number.isFinite(limit) ? limit : 50)));
}

/** Rows fetched with LIMIT limit + 1, newest first: the extra row only says that more exist. */
export function pageOf<T extends { id: number }>(rows: T[], limit: number): KeysetPage<T> {
  const entries = rows.slice(0, limit);
  return { entries, next_cursor: rows.length > limit ? entries[entries.length - 1].id : null };
}
