import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsHexColor,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { INT4_MAX, PageQueryDto, queryInteger, ROW_ID_MAX, trimmed } from '../../admin/pagination';
import { LAUNCHER_SHAPES, normalizeOrigin, SESSION_STATUSES, SKILL_SHAPE, WIDGET_POSITIONS } from '../widget-catalog';

/** Origins are compared lowercased without a trailing slash, so they are stored that way. */
const origins = () => Transform(({ value }) => (Array.isArray(value) ? [...new Set(value.map((v) => (typeof v === 'string' ? normalizeOrigin(v) : v)))] : value));
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:[0-9]{1,5})?$/;
const ORIGIN_MESSAGE = 'Each allowed origin must be a scheme and host such as https://docs.example.com (no path).';

export class WidgetThemeDto {
  @ApiPropertyOptional({ type: 'string', description: 'Hex colour' })
  @UnlessAbsent() @IsHexColor({ message: 'The theme accent must be a hex colour.' })
  accent?: string;

  @ApiPropertyOptional({ type: 'string', description: 'Hex colour' })
  @UnlessAbsent() @IsHexColor({ message: 'The theme background must be a hex colour.' })
  background?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 200 })
  @UnlessAbsent() @IsString() @MaxLength(200, { message: 'The theme font family must not be greater than 200 characters.' })
  @Matches(/^[\w\s,'"-]*$/, { message: 'The theme font family may hold only font names, quotes, commas and spaces.' })
  fontFamily?: string;

  @ApiPropertyOptional({ enum: LAUNCHER_SHAPES })
  @UnlessAbsent() @IsIn(LAUNCHER_SHAPES, { message: `The theme launcher shape must be one of ${LAUNCHER_SHAPES.join(', ')}.` })
  launcherShape?: string;

  @ApiPropertyOptional({ enum: WIDGET_POSITIONS })
  @UnlessAbsent() @IsIn(WIDGET_POSITIONS, { message: `The theme position must be one of ${WIDGET_POSITIONS.join(', ')}.` })
  position?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 80 })
  @UnlessAbsent() @IsString() @MaxLength(80, { message: 'The theme title must not be greater than 80 characters.' })
  title?: string;
}

/** Fields a key shares between create and update. */
class WidgetKeyFieldsDto {
  @ApiPropertyOptional({
    type: 'array',
    maxItems: 50,
    items: { type: 'string', pattern: ORIGIN.source },
    description: 'scheme://host[:port]; stored lowercased without trailing slash; empty denies every origin',
  })
  @UnlessAbsent()
  @origins()
  @IsArray({ message: 'The allowed origins field must be an array.' })
  @ArrayMaxSize(50, { message: 'The allowed origins field must not have more than 50 items.' })
  @IsString({ each: true, message: ORIGIN_MESSAGE })
  @Matches(ORIGIN, { each: true, message: ORIGIN_MESSAGE })
  allowed_origins?: string[];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 60, description: 'Requests a minute per key and client IP' })
  @UnlessAbsent()
  @IsInt({ message: 'The rate limit field must be an integer.' })
  @Min(1, { message: 'The rate limit field must be between 1 and 1000.' })
  @Max(1000, { message: 'The rate limit field must be between 1 and 1000.' })
  rate_limit?: number;

  @ApiPropertyOptional({ type: 'string', pattern: SKILL_SHAPE.source, description: 'name@N: kb-assistant@1 (default) or kb-search@1' })
  @UnlessAbsent()
  @IsString({ message: 'The skill field must be a string like name@1.' })
  @Matches(SKILL_SHAPE, { message: 'The skill field must look like name@1.' })
  skill?: string;

  @ApiPropertyOptional({ type: 'boolean', default: false })
  @UnlessAbsent() @IsBoolean({ message: 'The host tools enabled field must be true or false.' })
  host_tools_enabled?: boolean;

  @ApiPropertyOptional({ type: 'boolean', default: false })
  @UnlessAbsent() @IsBoolean({ message: 'The user auth enabled field must be true or false.' })
  user_auth_enabled?: boolean;

  /** The whole theme: an update replaces it, `{}` is the defaults; null is refused (422). */
  @ApiPropertyOptional({ type: () => WidgetThemeDto, description: 'The whole theme: an update replaces it; {} is the defaults' })
  @UnlessAbsent()
  @IsObject({ message: 'The theme field must be an object.' })
  @ValidateNested()
  @Type(() => WidgetThemeDto)
  theme?: WidgetThemeDto;
}

export class CreateWidgetKeyDto extends WidgetKeyFieldsDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 120 })
  @trimmed()
  @IsString({ message: 'The label field is required.' })
  @IsNotEmpty({ message: 'The label field is required.' })
  @MaxLength(120, { message: 'The label field must not be greater than 120 characters.' })
  label!: string;

  @ApiProperty({ type: 'string', minLength: 1, maxLength: 120 })
  @trimmed()
  @IsString({ message: 'The project key field is required.' })
  @IsNotEmpty({ message: 'The project key field is required.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key!: string;
}

/** Every update is an identity mutation: it names the version it was made against. */
export class UpdateWidgetKeyDto extends WidgetKeyFieldsDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: INT4_MAX, description: "The key's current identity_credential_version (compare-and-set)" })
  @IsInt({ message: 'The identity credential version field is required.' })
  @Min(1, { message: 'The identity credential version field must be at least 1.' })
  @Max(INT4_MAX, { message: `The identity credential version field must not be greater than ${INT4_MAX}.` })
  identity_credential_version!: number;

  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 120 })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The label field must be a string.' })
  @IsNotEmpty({ message: 'The label field must not be empty.' })
  @MaxLength(120, { message: 'The label field must not be greater than 120 characters.' })
  label?: string;

  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 120 })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The project key field must be a string.' })
  @IsNotEmpty({ message: 'The project key field must not be empty.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key?: string;

  @ApiPropertyOptional({ type: 'boolean' })
  @UnlessAbsent() @IsBoolean({ message: 'The active field must be true or false.' })
  active?: boolean;
}

export class IdentityVersionDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: INT4_MAX, description: "The key's current identity_credential_version (compare-and-set)" })
  @IsInt({ message: 'The identity credential version field is required.' })
  @Min(1, { message: 'The identity credential version field must be at least 1.' })
  @Max(INT4_MAX, { message: `The identity credential version field must not be greater than ${INT4_MAX}.` })
  identity_credential_version!: number;
}

export class ListWidgetSessionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SESSION_STATUSES })
  @IsOptional()
  @IsIn(SESSION_STATUSES, { message: `The selected status is invalid (one of ${SESSION_STATUSES.join(', ')}).` })
  status?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Widget key id' })
  @IsOptional()
  @queryInteger()
  @IsInt({ message: 'The key field must be a widget key id.' })
  @Min(1, { message: 'The key field must be a widget key id.' })
  @Max(ROW_ID_MAX, { message: 'The key field must be a widget key id.' })
  key?: number;
}
