import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto, trimmed } from '../../admin/pagination';

export const ANALYSIS_KINDS = ['coverage'] as const;

/** POST /api/admin/kb/analyses. */
export class RunAnalysisDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 120 })
  @trimmed()
  @IsString({ message: 'The project key field is required.' })
  @IsNotEmpty({ message: 'The project key field is required.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key!: string;

  @ApiPropertyOptional({ enum: ANALYSIS_KINDS, default: 'coverage' })
  @UnlessAbsent()
  @IsIn(ANALYSIS_KINDS, { message: `The selected kind is invalid (one of ${ANALYSIS_KINDS.join(', ')}).` })
  kind?: (typeof ANALYSIS_KINDS)[number];
}

export class ListAnalysesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'string', maxLength: 120 })
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The project field must be a string.' })
  @MaxLength(120, { message: 'The project field must not be greater than 120 characters.' })
  project?: string;
}
