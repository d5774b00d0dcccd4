import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ROW_ID_MAX, trimmed } from '../../admin/pagination';

export const MAX_REVIEW_DOCUMENTS = 50;
export const MAX_REVIEW_COLUMNS = 20;

export class ReviewColumnDto {
  @ApiProperty({ type: 'string', minLength: 3, maxLength: 500 })
  @trimmed()
  @IsString({ message: 'The question must be a string.' })
  @MinLength(3, { message: 'The question must be at least 3 characters.' })
  @MaxLength(500, { message: 'The question must not be greater than 500 characters.' })
  question!: string;

  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 120, description: 'Default: the question' })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The label must be a string.' })
  @IsNotEmpty({ message: 'The label must not be empty.' })
  @MaxLength(120, { message: 'The label must not be greater than 120 characters.' })
  label?: string;
}

/** A review is its documents (listed, or every document of a project) × its column questions. */
export class CreateTabularReviewDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 200 })
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(200, { message: 'The name field must not be greater than 200 characters.' })
  name!: string;

  @ApiPropertyOptional({
    type: 'array',
    minItems: 1,
    maxItems: MAX_REVIEW_DOCUMENTS,
    uniqueItems: true,
    items: { type: 'integer', minimum: 1 },
    description: 'Exactly one of document_ids and project_key',
  })
  @UnlessAbsent()
  @IsArray({ message: 'The document ids field must be a list.' })
  @ArrayMinSize(1, { message: 'The document ids field must list at least one document.' })
  @ArrayMaxSize(MAX_REVIEW_DOCUMENTS, { message: `The document ids field must not have more than ${MAX_REVIEW_DOCUMENTS} items.` })
  @ArrayUnique({ message: 'The document ids field has a duplicate value.' })
  @IsInt({ each: true, message: 'Each document id must be an integer.' })
  @Min(1, { each: true, message: 'Each document id must be at least 1.' })
  @Max(ROW_ID_MAX, { each: true, message: 'Each document id must be a document id.' })
  document_ids?: number[];

  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 120, description: `At most ${MAX_REVIEW_DOCUMENTS} documents` })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The project key field must be a string.' })
  @IsNotEmpty({ message: 'The project key field must not be empty.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key?: string;

  @ApiProperty({ type: () => [ReviewColumnDto], minItems: 1, maxItems: MAX_REVIEW_COLUMNS })
  @IsArray({ message: 'The columns field must be a list.' })
  @ArrayMinSize(1, { message: 'The columns field must have at least one question.' })
  @ArrayMaxSize(MAX_REVIEW_COLUMNS, { message: `The columns field must not have more than ${MAX_REVIEW_COLUMNS} items.` })
  @ValidateNested({ each: true })
  @Type(() => ReviewColumnDto)
  columns!: ReviewColumnDto[];
}
