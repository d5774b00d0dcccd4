import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { PageQueryDto, queryInteger, trimmed } from '../../admin/pagination';

export const DOCUMENT_STATUSES = ['pending', 'indexed', 'failed'];

/** `?project=` of GET /api/admin/kb/tree. */
export class TreeQueryDto {
  @ApiPropertyOptional({ type: 'string', maxLength: 120, description: 'One project (unknown: 404)' })
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The project field must be a string.' })
  @MaxLength(120, { message: 'The project field must not be greater than 120 characters.' })
  project?: string;
}

/** `?stale_days=` of GET /api/admin/kb/health (defaults to the analysis settings). */
export class KbHealthQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 3650, description: "Default: the analysis settings' stale_after_days" })
  @IsOptional()
  @queryInteger()
  @IsInt({ message: 'The stale days field must be an integer.' })
  @Min(1, { message: 'The stale days field must be at least 1.' })
  @Max(3650, { message: 'The stale days field must not be greater than 3650.' })
  stale_days?: number;
}

/** Filters and paging of GET /api/admin/kb/documents. */
export class ListAdminDocumentsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'string', maxLength: 120 })
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The project field must be a string.' })
  @MaxLength(120, { message: 'The project field must not be greater than 120 characters.' })
  project?: string;

  @ApiPropertyOptional({ enum: DOCUMENT_STATUSES })
  @IsOptional()
  @IsIn(DOCUMENT_STATUSES, { message: `The selected status is invalid (one of ${DOCUMENT_STATUSES.join(', ')}).` })
  status?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 32 })
  @IsOptional()
  @IsString({ message: 'The source type field must be a string.' })
  @MaxLength(32, { message: 'The source type field must not be greater than 32 characters.' })
  source_type?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 100 })
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The tag field must be a string.' })
  @MaxLength(100, { message: 'The tag field must not be greater than 100 characters.' })
  tag?: string;
}
