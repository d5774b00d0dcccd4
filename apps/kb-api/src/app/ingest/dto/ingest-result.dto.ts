import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class IngestEntryDto {
  @ApiProperty()
  project_key!: string;

  @ApiProperty()
  source_path!: string;

  @ApiProperty({ enum: ['queued', 'failed'] })
  status!: string;

  @ApiPropertyOptional({ type: 'integer' })
  document_id?: number;

  @ApiPropertyOptional({ description: 'Why the write failed' })
  error?: string;
}

/** What a batch did: each document queued for indexing, or failed. */
export class IngestResultDto {
  @ApiProperty({ type: 'integer' })
  queued!: number;

  @ApiProperty({ type: 'integer' })
  failed!: number;

  @ApiProperty({ type: [IngestEntryDto] })
  documents!: IngestEntryDto[];
}
