import { ApiProperty } from '@nestjs/swagger';
import { ApiPropertySchema, DATE_TIME, nullable } from '../../api-docs';
import { REPORT_KINDS } from './compliance.dto';

/** A stored compliance report without its content (lists, and the answer to generating one). */
export class ComplianceReportMetaDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ enum: REPORT_KINDS })
  kind!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The parameters it was generated with' })
  params!: Record<string, unknown>;

  @ApiProperty({ type: 'integer' })
  row_count!: number;

  @ApiPropertySchema(nullable({ type: 'string' }))
  created_by!: string | null;

  @ApiPropertySchema(DATE_TIME)
  created_at!: string;
}

/** One report with its content. */
export class ComplianceReportDto extends ComplianceReportMetaDto {
  @ApiProperty({
    type: 'object',
    properties: {
      summary: { type: 'object', additionalProperties: true },
      rows: { type: 'array', items: { type: 'object', additionalProperties: true } },
      columns: { type: 'array', items: { type: 'string' }, description: 'CSV header order' },
    },
  })
  content!: Record<string, unknown>;
}
