/** Strict ISO 8601 dates for the API's `from`/`to` window parameters. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))?)?$/;

/**
 * The epoch milliseconds of a UTC calendar instant, for any year 0–9999 as written. Date.UTC reads
 * years 0–99 as 1900–1999 (`0001-01-01` became 1901-01-01, and year 0's Feb 29 was refused as
 * 1900's), so the year is set with setUTCFullYear, which takes it as given.
 */
function utcMillis(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

/** Calendar-checked: 2026-02-30, 24:00 and :60 are refused rather than rolled over. */
export function parseStrictIsoDate(s: string, endOfDay = false): Date | undefined {
  const m = ISO.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, frac, zone, zh, zm] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > new Date(utcMillis(year, month, 0)).getUTCDate()) return undefined;
  if (h === undefined) return new Date(utcMillis(year, month - 1, day) + (endOfDay ? 86_400_000 - 1 : 0));
  if (zone === undefined) return undefined; // a date-time without an offset is ambiguous
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(sec ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (zone !== 'Z') {
    if (Number(zh) > 23 || Number(zm) > 59) return undefined;
    offset = (zone.startsWith('-') ? -1 : 1) * (Number(zh) * 60 + Number(zm)) * 60_000;
  }
  const ms = frac ? Number(frac.slice(0, 3).padEnd(3, '0')) : 0;
  return new Date(utcMillis(year, month - 1, day, hour, minute, second, ms) - offset);
}
