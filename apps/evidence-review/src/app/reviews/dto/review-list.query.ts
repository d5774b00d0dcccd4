import { ApiPropertyOptional } from '@nestjs/swagger';
import { VERDICTS } from '@platform/evidence-engine';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max } from 'class-validator';

/** Pages past this hold nothing anyone can reach; the bound keeps the offset a number SQL takes. */
export const MAX_PAGE = 1_000_000;
/** A larger per_page is served as this many rows, not refused. */
export const MAX_PER_PAGE = 100;

/**
 * The log's lenient paging: a value that is not all digits (or is 0, or repeated) keeps the
 * default; only digits beyond MAX_PAGE (`99999999999999999999`) are refused, naming the parameter,
 * instead of reaching SQL.
 */
const pageNumber = ({ value }: { value: unknown }) => {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return n >= 1 ? n : undefined;
};
/** A filter given once as a plain string; anything else filters nothing. */
const oneString = ({ value }: { value: unknown }) => (typeof value === 'string' ? value : undefined);

/** GET /evidence-risk-review/reviews: a page of the caller tenant's log, newest first. */
export class ReviewListQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Anything but digits keeps the default' })
  @Transform(pageNumber)
  @IsOptional()
  @IsInt()
  @Max(MAX_PAGE, { message: `must be at most ${MAX_PAGE}` })
  page?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PER_PAGE,
    default: 20,
    description: `Anything but digits keeps the default; more than ${MAX_PER_PAGE} is served as ${MAX_PER_PAGE}`,
  })
  @Transform(pageNumber)
  @IsOptional()
  @IsInt()
  @Max(MAX_PAGE, { message: `must be at most ${MAX_PAGE}` })
  per_page?: number;

  @ApiPropertyOptional({ description: 'Only reviews under this profile key' })
  @Transform(oneString)
  @IsOptional()
  @IsString()
  profile?: string;

  @ApiPropertyOptional({ description: 'Only reviews of this artifact' })
  @Transform(oneString)
  @IsOptional()
  @IsString()
  artifact_id?: string;

  @ApiPropertyOptional({ schema: { type: 'string', enum: [...VERDICTS] }, description: 'Only reviews at least this severe; an unknown verdict filters nothing' } as never)
  @Transform(oneString)
  @IsOptional()
  @IsString()
  min_verdict?: string;
}
