import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

export class IngestDocumentDto {
  @IsOptional()
  @IsString()
  @MaxLength(120)
  project_key?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  source_path!: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  title?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  mime_type?: string;

  /** Text, or base64 for binary formats. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(7_000_000)
  content!: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class IngestRequestDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => IngestDocumentDto)
  documents!: IngestDocumentDto[];
}
