import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional } from 'class-validator';
import { RangeQueryDto } from '../range-query.dto';

export const REPORT_KINDS = ['data-inventory', 'access-review', 'retention'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
const KIND_MESSAGE = `The selected kind is invalid (one of ${REPORT_KINDS.join(', ')}).`;

export class CreateReportDto {
  @ApiProperty({ enum: REPORT_KINDS })
  @IsIn(REPORT_KINDS, { message: KIND_MESSAGE })
  kind!: ReportKind;

  /** retention only: table → days to keep, overriding the defaults (checked by the service). */
  @ApiPropertyOptional({
    type: 'object',
    description: 'retention only: table → days kept',
    additionalProperties: { type: 'integer', minimum: 0 },
  })
  @IsOptional()
  @IsObject({ message: 'The retention days field must be an object of table: days.' })
  retention_days?: Record<string, unknown>;
}

export class ReportListQueryDto extends RangeQueryDto {
  @ApiPropertyOptional({ enum: REPORT_KINDS })
  @IsOptional()
  @IsIn(REPORT_KINDS, { message: KIND_MESSAGE })
  kind?: ReportKind;
}

export class DownloadQueryDto {
  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json' })
  @IsOptional()
  @IsIn(['json', 'csv'], { message: 'The selected format is invalid (one of json, csv).' })
  format?: 'json' | 'csv';
}
