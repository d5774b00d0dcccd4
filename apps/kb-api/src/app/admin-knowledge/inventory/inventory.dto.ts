import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto, trimmed } from '../../admin/pagination';

export const DOCUMENT_STATUSES = ['pending', 'indexed', 'failed'];

/** `?project=` of GET /api/admin/kb/tree. */
export class TreeQueryDto {
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The project field must be a string.' })
  @MaxLength(120, { message: 'The project field must not be greater than 120 characters.' })
  project?: string;
}

/** `?stale_days=` of GET /api/admin/kb/health (defaults to the analysis settings). */
export class KbHealthQueryDto {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'The stale days field must be an integer.' })
  @Min(1, { message: 'The stale days field must be at least 1.' })
  @Max(3650, { message: 'The stale days field must not be greater than 3650.' })
  stale_days?: number;
}

/** Filters and paging of GET /api/admin/kb/documents. */
export class ListAdminDocumentsQueryDto extends PageQueryDto {
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The project field must be a string.' })
  @MaxLength(120, { message: 'The project field must not be greater than 120 characters.' })
  project?: string;

  @IsOptional()
  @IsIn(DOCUMENT_STATUSES, { message: `The selected status is invalid (one of ${DOCUMENT_STATUSES.join(', ')}).` })
  status?: string;

  @IsOptional()
  @IsString({ message: 'The source type field must be a string.' })
  @MaxLength(32, { message: 'The source type field must not be greater than 32 characters.' })
  source_type?: string;

  @IsOptional()
  @trimmed()
  @IsString({ message: 'The tag field must be a string.' })
  @MaxLength(100, { message: 'The tag field must not be greater than 100 characters.' })
  tag?: string;
}
