import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
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
  @trimmed()
  @IsString({ message: 'The question must be a string.' })
  @MinLength(3, { message: 'The question must be at least 3 characters.' })
  @MaxLength(500, { message: 'The question must not be greater than 500 characters.' })
  question!: string;

  @IsOptional()
  @trimmed()
  @IsString({ message: 'The label must be a string.' })
  @IsNotEmpty({ message: 'The label must not be empty.' })
  @MaxLength(120, { message: 'The label must not be greater than 120 characters.' })
  label?: string;
}

/** A review is its documents (listed, or every document of a project) × its column questions. */
export class CreateTabularReviewDto {
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(200, { message: 'The name field must not be greater than 200 characters.' })
  name!: string;

  @IsOptional()
  @IsArray({ message: 'The document ids field must be a list.' })
  @ArrayMinSize(1, { message: 'The document ids field must list at least one document.' })
  @ArrayMaxSize(MAX_REVIEW_DOCUMENTS, { message: `The document ids field must not have more than ${MAX_REVIEW_DOCUMENTS} items.` })
  @ArrayUnique({ message: 'The document ids field has a duplicate value.' })
  @IsInt({ each: true, message: 'Each document id must be an integer.' })
  @Min(1, { each: true, message: 'Each document id must be at least 1.' })
  @Max(ROW_ID_MAX, { each: true, message: 'Each document id must be a document id.' })
  document_ids?: number[];

  @IsOptional()
  @trimmed()
  @IsString({ message: 'The project key field must be a string.' })
  @IsNotEmpty({ message: 'The project key field must not be empty.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key?: string;

  @IsArray({ message: 'The columns field must be a list.' })
  @ArrayMinSize(1, { message: 'The columns field must have at least one question.' })
  @ArrayMaxSize(MAX_REVIEW_COLUMNS, { message: `The columns field must not have more than ${MAX_REVIEW_COLUMNS} items.` })
  @ValidateNested({ each: true })
  @Type(() => ReviewColumnDto)
  columns!: ReviewColumnDto[];
}
