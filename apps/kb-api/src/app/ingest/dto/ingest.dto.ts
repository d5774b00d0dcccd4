import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsObject, IsString, MaxLength, ValidateNested } from 'class-validator';

export class IngestDocumentDto {
  @ApiPropertyOptional({ maxLength: 120, description: 'Default: KB_INGEST_DEFAULT_PROJECT' })
  @UnlessAbsent()
  @IsString()
  @MaxLength(120)
  project_key?: string;

  @ApiProperty({ minLength: 1, maxLength: 500 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  source_path!: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @UnlessAbsent()
  @IsString()
  @MaxLength(255)
  title?: string;

  @ApiPropertyOptional({ maxLength: 255, default: 'text/markdown' })
  @UnlessAbsent()
  @IsString()
  @MaxLength(255)
  mime_type?: string;

  /** Text, or base64 for binary formats. */
  @ApiProperty({ minLength: 1, maxLength: 7_000_000, description: 'Text, or base64 for binary formats (PDF, DOCX)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(7_000_000)
  content!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @UnlessAbsent()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class IngestRequestDto {
  @ApiProperty({ type: () => [IngestDocumentDto], minItems: 1, maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => IngestDocumentDto)
  documents!: IngestDocumentDto[];
}
