import { EndpointName, GuardrailsApiError } from './envelope';

/**
 * Strict parsing of list query parameters. A repeated parameter (`x=1&x=2`, `x[]=1`) is ignored as
 * the contract says; a single malformed value is a 422 naming the parameter, never a silently
 * dropped filter (which would widen the result).
 */
export class QueryParams {
  private readonly errors: Record<string, string[]> = {};

  constructor(
    private readonly query: Record<string, unknown>,
    private readonly endpoint: EndpointName,
  ) {}

  /** The value when given exactly once as a plain string. */
  string(name: string, maxLength = 500): string | undefined {
    const v = this.query[name];
    if (typeof v !== 'string') return undefined;
    if (v.length > maxLength) return this.fail(name, `must be at most ${maxLength} characters`);
    return v;
  }

  /** Strictly positive integer without sign, exponent or leading zero. */
  positiveInt(name: string): number | undefined {
    const v = this.string(name);
    if (v === undefined || v === '') return undefined;
    if (!/^[1-9][0-9]{0,15}$/.test(v) || !Number.isSafeInteger(Number(v))) return this.fail(name, 'must be a strictly positive integer');
    return Number(v);
  }

  limit(fallback = 50, max = 200): number {
    const n = this.positiveInt('limit');
    if (n === undefined) return fallback;
    if (n > max) return this.fail('limit', `must be between 1 and ${max}`) ?? fallback;
    return n;
  }

  boolean(name: string): boolean | undefined {
    const v = this.string(name);
    if (v === undefined || v === '') return undefined;
    const lower = v.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(lower)) return true;
    if (['false', '0', 'no', 'off'].includes(lower)) return false;
    return this.fail(name, 'must be true or false');
  }

  /** Strict ISO 8601 date or date-time; a bare date is the start (or, with endOfDay, the end) of that UTC day. */
  date(name: string, endOfDay = false): Date | undefined {
    const v = this.string(name, 64);
    if (v === undefined || v === '') return undefined;
    const d = parseStrictIsoDate(v, endOfDay);
    return d ?? this.fail(name, 'must be an ISO 8601 date (2026-03-01) or date-time (2026-03-01T10:00:00Z)');
  }

  /** Throws the collected problems as one 422. */
  done(): void {
    if (Object.keys(this.errors).length) {
      throw new GuardrailsApiError(422, this.endpoint, { error: 'invalid_query', message: 'some query parameters are invalid', errors: this.errors });
    }
  }

  private fail(name: string, message: string): undefined {
    (this.errors[name] ??= []).push(message);
    return undefined;
  }
}

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
