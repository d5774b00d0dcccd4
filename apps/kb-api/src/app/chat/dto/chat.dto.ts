import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { ROW_ID_MAX } from '../../admin/pagination';

export class ChatFiltersDto {
  @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(120, { each: true })
  project_keys?: string[];

  @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(120, { each: true })
  tag_slugs?: string[];

  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(40, { each: true })
  source_types?: string[];

  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(40, { each: true })
  canonical_types?: string[];

  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(40, { each: true })
  connector_types?: string[];

  @IsOptional() @IsArray() @ArrayMaxSize(1000) @IsInt({ each: true }) @Min(1, { each: true }) @Max(ROW_ID_MAX, { each: true })
  doc_ids?: number[];

  @IsOptional() @IsInt() @Min(1) @Max(ROW_ID_MAX)
  collection_id?: number;

  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(500, { each: true })
  folder_globs?: string[];

  @IsOptional() @IsDateString({ strict: true })
  date_from?: string;

  @IsOptional() @IsDateString({ strict: true })
  date_to?: string;
}

export class ChatRequestDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(10_000)
  question!: string;

  @IsOptional()
  @IsBoolean()
  anonymous?: boolean;

  /** Legacy top-level project scope; `filters.project_keys` wins when both are given. */
  @IsOptional()
  @IsString()
  @MaxLength(120)
  project_key?: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFiltersDto)
  filters?: ChatFiltersDto;
}
