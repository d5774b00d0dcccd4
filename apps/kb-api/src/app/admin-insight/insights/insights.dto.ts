import { ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { IsDateInput } from '../../validation/date-input';

/** POST /api/admin/insights/compute: the period, by default the last INSIGHT_DEFAULT_DAYS days (absent: the default; null: 422). */
export class ComputeInsightsDto {
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Default: the start of the default period the operation names' })
  @UnlessAbsent()
  @IsDateInput('from')
  from?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Default: now' })
  @UnlessAbsent()
  @IsDateInput('to')
  to?: string;
}
