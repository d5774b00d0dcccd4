/** Strict ISO 8601 dates for the API's `from`/`to` window parameters. */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-](\d{2}):(\d{2}))?)?$/;

/** Calendar-checked: 2026-02-30, 24:00 and :60 are refused rather than rolled over. */
export function parseStrictIsoDate(s: string, endOfDay = false): Date | undefined {
  const m = ISO.exec(s);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec, frac, zone, zh, zm] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  if (h === undefined) return new Date(Date.UTC(year, month - 1, day) + (endOfDay ? 86_400_000 - 1 : 0));
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
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset);
}
