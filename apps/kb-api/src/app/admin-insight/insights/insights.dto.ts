import { ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { IsISO8601 } from 'class-validator';

/** POST /api/admin/insights/compute: the period, by default the last INSIGHT_DEFAULT_DAYS days (absent: the default; null: 422). */
export class ComputeInsightsDto {
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Default: the start of the default period the operation names' })
  @UnlessAbsent()
  @IsISO8601({ strict: true }, { message: 'The from field must be an ISO 8601 date.' })
  from?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Default: now' })
  @UnlessAbsent()
  @IsISO8601({ strict: true }, { message: 'The to field must be an ISO 8601 date.' })
  to?: string;
}
