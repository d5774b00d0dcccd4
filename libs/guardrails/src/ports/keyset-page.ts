/** Newest-first keyset pagination: `cursor` is the id of the last row seen. */
export interface KeysetQuery {
  /** 1..200 */
  limit: number;
  /** Rows with id < cursor. */
  cursor?: number;
}

export interface KeysetPage<T> {
  entries: T[];
  /** Id of the page's last row when more rows exist, else null. */
  next_cursor: number | null;
}

export interface TimeWindow {
  /** Inclusive. */
  from?: Date;
  /** Inclusive. */
  to?: Date;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
