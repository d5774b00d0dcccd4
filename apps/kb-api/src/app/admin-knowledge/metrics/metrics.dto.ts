import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import type { SeriesMetric } from './metrics.repository';
import { queryInteger } from '../../admin/pagination';

export const SERIES_METRICS: SeriesMetric[] = ['chats', 'refusals', 'ingested'];
export const MAX_SERIES_DAYS = 366;

/** `?metric=chats|refusals|ingested&days=` of GET /api/admin/metrics/timeseries. */
export class TimeseriesQueryDto {
  @ApiProperty({ enum: SERIES_METRICS })
  @IsIn(SERIES_METRICS, { message: `The selected metric is invalid (one of ${SERIES_METRICS.join(', ')}).` })
  metric!: SeriesMetric;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_SERIES_DAYS, default: 14 })
  @IsOptional()
  @queryInteger()
  @IsInt({ message: 'The days field must be an integer.' })
  @Min(1, { message: 'The days field must be at least 1.' })
  @Max(MAX_SERIES_DAYS, { message: `The days field must not be greater than ${MAX_SERIES_DAYS}.` })
  days?: number;
}
