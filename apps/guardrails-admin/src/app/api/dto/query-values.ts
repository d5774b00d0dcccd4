import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy, ValidationArguments } from 'class-validator';
import { parseStrictIsoDate } from '../iso-date';

/**
 * The API's query parameter kinds as DTO property decorators. Each parses the raw value once (in a
 * class-transformer step) into the typed value or an `Unparsable` carrying the exact message the
 * contract gives, which the `parsed` constraint then reports under the parameter's name. A repeated
 * parameter (`x=1&x=2`, `x[]=1`) is ignored, as the contract says; a single malformed value is a
 * 422 naming it, never a silently dropped filter (which would widen the result).
 */
class Unparsable {
  constructor(readonly message: string) {}
}

const parsed = () =>
  ValidateBy({
    name: 'parsed',
    validator: {
      validate: (value: unknown) => !(value instanceof Unparsable),
      defaultMessage: (args?: ValidationArguments) => (args?.value as Unparsable).message,
    },
  });

/** The value when given exactly once as a plain string (an over-long one is refused). */
const single = (value: unknown, maxLength: number): string | undefined | Unparsable => {
  if (typeof value !== 'string') return undefined;
  return value.length > maxLength ? new Unparsable(`must be at most ${maxLength} characters`) : value;
};

/** `absent` is what a missing or repeated parameter becomes. */
const parser = (parse: (raw: string) => unknown, maxLength = 500, absent?: unknown) =>
  Transform(({ value }) => {
    const raw = single(value, maxLength);
    if (raw === undefined) return absent;
    return raw instanceof Unparsable ? raw : parse(raw);
  });

const positiveInt = (raw: string) => {
  if (raw === '') return undefined;
  return /^[1-9][0-9]{0,15}$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : new Unparsable('must be a strictly positive integer');
};

/** A free-text filter; empty means no filter. */
export const QueryText = (maxLength: number, description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'string', maxLength, description }),
    parser((raw) => raw || undefined, maxLength),
    parsed(),
  );

/** Strictly positive integer without sign, exponent or leading zero. */
export const QueryPositiveInt = (description?: string) =>
  applyDecorators(ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description }), parser(positiveInt), parsed());

/** A page size: `fallback` when absent, refused above `max`. */
export const QueryLimit = (fallback: number, max: number) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: max, default: fallback, description: 'Rows per page' }),
    parser((raw) => {
      const n = positiveInt(raw);
      if (n === undefined) return fallback;
      return typeof n === 'number' && n > max ? new Unparsable(`must be between 1 and ${max}`) : n;
    }, 500, fallback),
    // A parameter not sent at all never reaches the transform: the property's initializer gives the default.
    parsed(),
  );

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

export const QueryBoolean = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: 'boolean', description: `${description ? `${description}. ` : ''}Also 1/0, yes/no, on/off (any case)` }),
    parser((raw) => {
      if (raw === '') return undefined;
      const lower = raw.toLowerCase();
      return TRUE.includes(lower) ? true : FALSE.includes(lower) ? false : new Unparsable('must be true or false');
    }),
    parsed(),
  );

/** Strict ISO 8601 date or date-time; a bare date is the start (or, with endOfDay, the end) of that UTC day. */
export const QueryDate = (endOfDay: boolean) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'string',
      maxLength: 64,
      description: `Strict ISO 8601 date (a UTC day: ${endOfDay ? 'its end' : 'its start'}) or date-time with an offset`,
      examples: ['2026-03-01', '2026-03-01T10:00:00Z'],
    }),
    parser((raw) => (raw === '' ? undefined : (parseStrictIsoDate(raw, endOfDay) ?? new Unparsable('must be an ISO 8601 date (2026-03-01) or date-time (2026-03-01T10:00:00Z)'))), 64),
    parsed(),
  );
