import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
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
import { ApiPropertySchema, nullable } from '../../api-docs';
import { IsDateInput, IsNotBeforeDayOf } from '../../validation/date-input';

/**
 * The chat's filters, one class wherever they are taken (chat, retrieve, a conversation's message,
 * a chat-filter preset): every rule, the date order included, is here and nowhere else.
 */
export class ChatFiltersDto {
  @ApiPropertyOptional({ type: [String], maxItems: 50, items: { type: 'string', maxLength: 120 }, description: 'Only these projects' })
  @UnlessAbsent() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(120, { each: true })
  project_keys?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 50, items: { type: 'string', maxLength: 120 }, description: 'Only documents with one of these tags' })
  @UnlessAbsent() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(120, { each: true })
  tag_slugs?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 20, items: { type: 'string', maxLength: 40 }, description: 'Only these source types' })
  @UnlessAbsent() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(40, { each: true })
  source_types?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 20, items: { type: 'string', maxLength: 40 }, description: 'Only these canonical document types' })
  @UnlessAbsent() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(40, { each: true })
  canonical_types?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 20, items: { type: 'string', maxLength: 40 }, description: 'Only documents from these connectors' })
  @UnlessAbsent() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(40, { each: true })
  connector_types?: string[];

  @ApiPropertyOptional({ type: [Number], maxItems: 1000, items: { type: 'integer', minimum: 1, maximum: ROW_ID_MAX }, description: 'Only these documents' })
  @UnlessAbsent() @IsArray() @ArrayMaxSize(1000) @IsInt({ each: true }) @Min(1, { each: true }) @Max(ROW_ID_MAX, { each: true })
  doc_ids?: number[];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: ROW_ID_MAX, description: 'Only documents of this collection' })
  @UnlessAbsent() @IsInt() @Min(1) @Max(ROW_ID_MAX)
  collection_id?: number;

  @ApiPropertyOptional({ type: [String], maxItems: 20, items: { type: 'string', maxLength: 500 }, description: 'Only documents whose source path matches one of these globs' })
  @UnlessAbsent() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @MaxLength(500, { each: true })
  folder_globs?: string[];

  @ApiPropertyOptional({ format: 'date-time', description: 'A full date (YYYY-MM-DD) or a date-time with its time zone; documents updated on or after the day it names' })
  @UnlessAbsent() @IsDateInput('date from')
  date_from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'A full date (YYYY-MM-DD) or a date-time with its time zone, not before date_from; documents updated on or before the day it names' })
  @UnlessAbsent() @IsDateInput('date to') @IsNotBeforeDayOf('date_from', 'The end date must be on or after the start date.')
  date_to?: string;
}

/**
 * `filters` as a body field that may be null: on the query-like routes (chat, retrieve, a
 * conversation's message) null means no filters, exactly as absent.
 */
export const ApiNullableChatFilters = (description?: string) =>
  ApiPropertySchema(
    { oneOf: [{ $ref: getSchemaPath(ChatFiltersDto) }, { type: 'null' }] },
    { required: false, description: description ? `${description}; null: no filters, as absent` : 'null: no filters, as absent' },
  );

/**
 * null is not absence, except where it means "none" on this query-like route: `project_key` and
 * `filters` take null as no project scope / no filters (the same as absent); `anonymous` refuses it.
 */
@ApiExtraModels(ChatFiltersDto)
export class ChatRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 10_000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(10_000)
  question!: string;

  @ApiPropertyOptional({ description: 'Only while anonymous chat is switched on (422 otherwise)' })
  @UnlessAbsent()
  @IsBoolean()
  anonymous?: boolean;

  /** Legacy top-level project scope; `filters.project_keys` wins when both are given. null: none, as absent. */
  @ApiPropertySchema(nullable({ type: 'string', maxLength: 120 }), { required: false, description: 'Legacy project scope; filters.project_keys wins; null: no project scope, as absent' })
  @IsOptional()
  @IsString()
  @MaxLength(120)
  project_key?: string | null;

  @ApiNullableChatFilters()
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChatFiltersDto)
  filters?: ChatFiltersDto | null;
}
