import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;
/** Pages past this hold nothing anyone reaches; the bound keeps the offset a number SQL takes (`page=1e20` is a 422, not a 500). */
export const MAX_PAGE = 1_000_000;

/** Strings arrive trimmed; anything else is left for the validators to refuse. */
export const trimmed = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/**
 * A query integer, strictly: decimal digits (a leading minus kept for the bound's message) become
 * the number; anything else (`1e2`, `0x10`, `1.0`, ` 5`, an empty value) stays a string and fails
 * the field's IsInt. Number() would have read `1e2` as 100 and `0x10` as 16.
 */
export const queryInteger = () => Transform(({ value }) => (typeof value === 'string' && /^-?[0-9]+$/.test(value) ? Number(value) : value));

/** Query booleans as the SPA sends them: true/false or 1/0; anything else stays a string and fails. */
export const queryBoolean = () =>
  Transform(({ value }) => {
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    return value;
  });

/** `?page=&per_page=` of a paged list (query strings become numbers here, strictly: decimal digits only). */
export class PageParamsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @queryInteger()
  @IsInt({ message: 'The page field must be an integer.' })
  @Min(1, { message: 'The page field must be at least 1.' })
  @Max(MAX_PAGE, { message: `The page field must not be greater than ${MAX_PAGE}.` })
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE })
  @IsOptional()
  @queryInteger()
  @IsInt({ message: 'The per page field must be an integer.' })
  @Min(1, { message: 'The per page field must be at least 1.' })
  @Max(MAX_PER_PAGE, { message: `The per page field must not be greater than ${MAX_PER_PAGE}.` })
  per_page?: number;
}

/** `?page=&per_page=&search=` of the admin lists. */
export class PageQueryDto extends PageParamsDto {
  @ApiPropertyOptional({ maxLength: 255, description: 'Case-insensitive substring to look for (% and _ match themselves)' })
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The search field must be a string.' })
  @MaxLength(255, { message: 'The search field must not be greater than 255 characters.' })
  search?: string;
}

/** A Laravel-style length-aware page, the admin surfaces' list shape. */
export interface Page<T> {
  data: T[];
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export interface PageWindow {
  page: number;
  perPage: number;
  offset: number;
}

export function pageWindow(q: PageQueryDto): PageWindow {
  const page = q.page ?? 1;
  const perPage = q.per_page ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}

export function toPage<T>(data: T[], total: number, w: PageWindow): Page<T> {
  return {
    data,
    current_page: w.page,
    per_page: w.perPage,
    total,
    last_page: Math.max(1, Math.ceil(total / w.perPage)),
  };
}

/** A case-insensitive "contains" pattern for ILIKE in which %, _ and \ match themselves; null for no search. */
export function containsPattern(search: string | undefined): string | null {
  if (search === undefined || search === '') return null;
  return `%${search.replace(/[\\%_]/g, '\\$&')}%`;
}

/** Row ids are bigserial: anything else cannot name a row (and must not reach a bigint cast). */
export const isRowId = (id: string) => /^[1-9][0-9]{0,17}$/.test(id);

/**
 * Upper bounds of integers in JSON bodies and query strings, by the column they reach: a bigserial
 * row id as far as a client can send one exactly, and an `integer` column's own maximum (past it
 * Postgres fails the statement instead of finding nothing).
 */
export const ROW_ID_MAX = Number.MAX_SAFE_INTEGER;
export const INT4_MAX = 2_147_483_647;
