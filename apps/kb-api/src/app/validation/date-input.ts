import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';

/**
 * A full date, or a full date-time with its time zone: `2026-11-27`, `2026-11-27T22:49Z`,
 * `2026-11-27T22:49:12.182+01:00`. ISO 8601 also has reduced forms (`2026`, `2026-11`,
 * `2026-W48`, `2026-332`, `2026-11-27T22`) and date-times without a zone; class-validator's strict
 * IsISO8601 lets them through, Postgres refuses the former (SQLSTATE 22007) and reads the latter
 * in the session's zone, so neither is taken.
 */
const DATE_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|([+-])(\d{2}):(\d{2})))?$/;
/** The widest offset of any real time zone (Postgres takes up to ±15:59). */
const MAX_OFFSET_MINUTES = 14 * 60;

const daysIn = (year: number, month: number) => (month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/** Whether `value` is a date or a date-time with a zone (as DATE_INPUT), checked against the calendar. */
export function isDateInput(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_INPUT.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s, , oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  // Postgres has no year 0 (0000-01-01 is out of range).
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false;
  if (h === undefined) return true;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59) return false;
  return oh === undefined || (Number(om) <= 59 && Number(oh) * 60 + Number(om) <= MAX_OFFSET_MINUTES);
}

/** The calendar day a date input names as written (`2026-11-27T23:30-05:00` → `2026-11-27`), as Postgres's `::date` reads it. */
export const dayOf = (input: string): string => input.slice(0, 10);

/** The message of a field that is not a date input, naming the field. */
export const dateInputMessage = (field: string) =>
  `The ${field} field must be a date (YYYY-MM-DD) or a date-time with a time zone (YYYY-MM-DDTHH:MM[:SS]Z or ±HH:MM).`;

/**
 * Every date kb-api takes from a client (filters, list windows, expiries): a full date or a full
 * date-time with its time zone, else 422 naming the field (`field` is its name as the message says it).
 */
export function IsDateInput(field: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy({ name: 'isDateInput', validator: { validate: (value: unknown) => isDateInput(value) } }, { message: dateInputMessage(field), ...options });
}

/**
 * A date input whose day is not before the day of the object's `start` date input (a range by
 * day, as the chat filters apply it). Either one absent or malformed is left to its own rules.
 */
export function IsNotBeforeDayOf(start: string, message: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isNotBeforeDayOf',
      constraints: [start],
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          const from = (args?.object as Record<string, unknown> | undefined)?.[start];
          return !isDateInput(value) || !isDateInput(from) || dayOf(value) >= dayOf(from);
        },
      },
    },
    { message, ...options },
  );
}
