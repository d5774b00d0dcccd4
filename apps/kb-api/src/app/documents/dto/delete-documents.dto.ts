import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';

export class DocumentReferenceDto {
  /** Defaults to the default ingest project, as at ingest. */
  @ApiPropertyOptional({ maxLength: 120, description: 'Default: the default ingest project, as at ingest' })
  @UnlessAbsent()
  @IsString()
  @MaxLength(120)
  project_key?: string;

  @ApiProperty({ minLength: 1, maxLength: 500 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  source_path!: string;
}

export class DeleteDocumentsDto {
  @ApiProperty({ type: () => [DocumentReferenceDto], minItems: 1, maxItems: 100 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => DocumentReferenceDto)
  documents!: DocumentReferenceDto[];

  /** Hard delete: the row, its chunks and the stored file go; otherwise the document is only marked deleted. */
  @ApiPropertyOptional({ description: 'Hard delete: the row, its chunks and the stored file go; otherwise the document is only marked deleted' })
  @UnlessAbsent()
  @IsBoolean()
  force?: boolean;
}
