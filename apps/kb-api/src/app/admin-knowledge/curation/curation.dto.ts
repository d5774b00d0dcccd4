import { ApiPropertySchema, nullable } from '../../api-docs';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { PageQueryDto, ROW_ID_MAX, trimmed } from '../../admin/pagination';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Create and PATCH: an absent field is derived (slug from the name) or kept (PATCH); null is refused
 * with 422, except `description`, whose null is "no description" (PATCH: clears it).
 */
export class CreateCollectionDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 255, description: 'Trimmed' })
  @trimmed()
  @IsString({ message: 'The name field is required.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name!: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', description: 'Default: from the name' })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The slug field must be a string.' })
  @MaxLength(100, { message: 'The slug field must not be greater than 100 characters.' })
  @Matches(SLUG, { message: 'The slug field must be lower-case letters, digits and single dashes.' })
  slug?: string;

  @ApiPropertySchema(nullable({ type: 'string', maxLength: 2000 }), { required: false, description: 'null: no description' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString({ message: 'The description field must be a string.' })
  @MaxLength(2000, { message: 'The description field must not be greater than 2000 characters.' })
  description?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Free-form criteria kept with the collection' })
  @UnlessAbsent()
  @IsObject({ message: 'The criteria field must be an object.' })
  criteria?: Record<string, unknown>;
}

export class UpdateCollectionDto {
  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 255, description: 'Trimmed' })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field must not be empty.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 100, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', description: 'Unique in the tenant' })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The slug field must be a string.' })
  @MaxLength(100, { message: 'The slug field must not be greater than 100 characters.' })
  @Matches(SLUG, { message: 'The slug field must be lower-case letters, digits and single dashes.' })
  slug?: string;

  @ApiPropertySchema(nullable({ type: 'string', maxLength: 2000 }), { required: false, description: 'null clears it' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString({ message: 'The description field must be a string.' })
  @MaxLength(2000, { message: 'The description field must not be greater than 2000 characters.' })
  description?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Free-form criteria kept with the collection' })
  @UnlessAbsent()
  @IsObject({ message: 'The criteria field must be an object.' })
  criteria?: Record<string, unknown>;
}

const ids = (field: string) => [
  IsArray({ message: `The ${field} field must be an array.` }),
  ArrayMaxSize(1000, { message: `The ${field} field must not have more than 1000 items.` }),
  IsInt({ each: true, message: `Each ${field} entry must be a document id.` }),
  Min(1, { each: true, message: `Each ${field} entry must be a document id.` }),
  Max(ROW_ID_MAX, { each: true, message: `Each ${field} entry must be a document id.` }),
];
const apply = (decorators: PropertyDecorator[]): PropertyDecorator => (target, key) => decorators.forEach((d) => d(target, key));

/** POST /api/admin/kb/collections/{id}/documents. */
export class CollectionMembersDto {
  @ApiPropertyOptional({ type: 'array', maxItems: 1000, items: { type: 'integer', minimum: 1 }, description: 'Document ids' })
  @UnlessAbsent() @apply(ids('add')) add?: number[];
  @ApiPropertyOptional({ type: 'array', maxItems: 1000, items: { type: 'integer', minimum: 1 }, description: 'Document ids' })
  @UnlessAbsent() @apply(ids('remove')) remove?: number[];
}

export class RenameTagDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 100, description: 'The new tag' })
  @trimmed()
  @IsString({ message: 'The name field is required.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(100, { message: 'The name field must not be greater than 100 characters.' })
  name!: string;
}

export class ListSynonymsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'string', maxLength: 120, description: 'Sets of this project' })
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The project field must be a string.' })
  @MaxLength(120, { message: 'The project field must not be greater than 120 characters.' })
  project?: string;
}

/** POST and PUT /api/admin/kb/synonyms: the set's words or phrases, optionally for one project. */
export class SynonymSetDto {
  @ApiProperty({ type: 'array', minItems: 2, maxItems: 50, items: { type: 'string', maxLength: 64 }, description: 'Trimmed, lower-cased and de-duplicated; at least two must remain' })
  @IsArray({ message: 'The terms field must be an array.' })
  @ArrayMinSize(2, { message: 'The terms field must have at least 2 items.' })
  @ArrayMaxSize(50, { message: 'The terms field must not have more than 50 items.' })
  @IsString({ each: true, message: 'Each term must be a string.' })
  @MaxLength(64, { each: true, message: 'Each term must not be greater than 64 characters.' })
  terms!: string[];

  @ApiPropertySchema(nullable({ type: 'string', minLength: 1, maxLength: 120 }), { required: false, description: 'null: every project' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @trimmed()
  @IsString({ message: 'The project key field must be a string.' })
  @IsNotEmpty({ message: 'The project key field must not be empty.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key?: string | null;
}
