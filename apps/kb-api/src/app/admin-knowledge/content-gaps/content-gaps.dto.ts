import { ApiPropertySchema, nullable } from '../../api-docs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { PageParamsDto, queryInteger } from '../../admin/pagination';

export const DEFAULT_GAP_DAYS = 30;

/** `?days=&page=&per_page=` of GET /api/admin/kb/content-gaps. */
export class ListContentGapsQueryDto extends PageParamsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 365, default: DEFAULT_GAP_DAYS })
  @IsOptional()
  @queryInteger()
  @IsInt({ message: 'The days field must be an integer.' })
  @Min(1, { message: 'The days field must be at least 1.' })
  @Max(365, { message: 'The days field must not be greater than 365.' })
  days?: number;
}

/** POST /api/admin/kb/content-gaps/{id}/resolve. */
export class ResolveContentGapDto {
  @ApiPropertySchema(nullable({ type: 'string', maxLength: 2000 }), { required: false })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString({ message: 'The note field must be a string.' })
  @MaxLength(2000, { message: 'The note field must not be greater than 2000 characters.' })
  note?: string | null;
}
