import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional } from 'class-validator';

/** POST /api/admin/insights/compute: the period, by default the last INSIGHT_DEFAULT_DAYS days. */
export class ComputeInsightsDto {
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Default: the start of the default period the operation names' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The from field must be an ISO 8601 date.' })
  from?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Default: now' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The to field must be an ISO 8601 date.' })
  to?: string;
}
