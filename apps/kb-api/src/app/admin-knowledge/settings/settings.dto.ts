import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { UnlessAbsent } from '@platform/observability';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { MIME_TYPES } from '../../ingest/convert';
import { ANALYSIS_DEFAULTS, AUTOWIKI_DEFAULTS, EVIDENCE_TIER_DEFAULTS } from './knowledge-settings';

/** The source types ingest produces. */
export const SOURCE_TYPES = Object.keys(MIME_TYPES);

const int = (field: string, min: number, max: number) => [
  IsInt({ message: `The ${field} field must be an integer.` }),
  Min(min, { message: `The ${field} field must be at least ${min}.` }),
  Max(max, { message: `The ${field} field must not be greater than ${max}.` }),
];
const bool = (field: string) => IsBoolean({ message: `The ${field} field must be true or false.` });
const apply = (decorators: PropertyDecorator[]): PropertyDecorator => (target, key) => decorators.forEach((d) => d(target, key));
const lowerTrimmed = () => Transform(({ value }) => (Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v)) : value));

/** PUT /api/admin/kb/analysis-settings: every key optional (absent = default; null is refused, not stored), unknown keys refused. */
export class AnalysisSettingsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, default: ANALYSIS_DEFAULTS.low_confidence_threshold })
  @UnlessAbsent() @apply(int('low confidence threshold', 0, 100)) low_confidence_threshold?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 3650, default: ANALYSIS_DEFAULTS.stale_after_days })
  @UnlessAbsent() @apply(int('stale after days', 1, 3650)) stale_after_days?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10080, default: ANALYSIS_DEFAULTS.stuck_ingest_minutes })
  @UnlessAbsent() @apply(int('stuck ingest minutes', 1, 10_080)) stuck_ingest_minutes?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: ANALYSIS_DEFAULTS.top_terms })
  @UnlessAbsent() @apply(int('top terms', 1, 100)) top_terms?: number;
}

/** PUT /api/admin/kb/autowiki-settings. */
export class AutowikiSettingsDto {
  @ApiPropertyOptional({ type: 'boolean', default: AUTOWIKI_DEFAULTS.enabled })
  @UnlessAbsent() @bool('enabled') enabled?: boolean;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10000, default: AUTOWIKI_DEFAULTS.min_document_frequency })
  @UnlessAbsent() @apply(int('min document frequency', 1, 10_000)) min_document_frequency?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: AUTOWIKI_DEFAULTS.max_document_share, description: 'Percent of documents' })
  @UnlessAbsent() @apply(int('max document share', 1, 100)) max_document_share?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: AUTOWIKI_DEFAULTS.max_concepts })
  @UnlessAbsent() @apply(int('max concepts', 1, 1000)) max_concepts?: number;
  @ApiPropertyOptional({ type: 'boolean', default: AUTOWIKI_DEFAULTS.include_headings })
  @UnlessAbsent() @bool('include headings') include_headings?: boolean;
  @ApiPropertyOptional({ type: 'boolean', default: AUTOWIKI_DEFAULTS.include_terms })
  @UnlessAbsent() @bool('include terms') include_terms?: boolean;

  @ApiPropertyOptional({ type: 'array', maxItems: 500, items: { type: 'string', minLength: 1, maxLength: 100 }, default: AUTOWIKI_DEFAULTS.exclude_terms, description: 'Trimmed and lower-cased' })
  @UnlessAbsent()
  @lowerTrimmed()
  @IsArray({ message: 'The exclude terms field must be an array.' })
  @ArrayMaxSize(500, { message: 'The exclude terms field must not have more than 500 items.' })
  @IsString({ each: true, message: 'Each exclude term must be a string.' })
  @MinLength(1, { each: true, message: 'Each exclude term must not be empty.' })
  @MaxLength(100, { each: true, message: 'Each exclude term must not be greater than 100 characters.' })
  exclude_terms?: string[];
}

export class EvidenceTierDto {
  @ApiPropertyOptional({ enum: SOURCE_TYPES, description: 'Exactly one of source_type and path_prefix' })
  @UnlessAbsent()
  @IsIn(SOURCE_TYPES, { message: `The selected source type is invalid (one of ${SOURCE_TYPES.join(', ')}).` })
  source_type?: string;

  @ApiPropertyOptional({ type: 'string', maxLength: 255, description: 'A relative folder path' })
  @UnlessAbsent()
  @IsString({ message: 'The path prefix field must be a string.' })
  @Matches(/^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\\]{1,255}$/, { message: 'The path prefix field must be a relative folder path.' })
  path_prefix?: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100 })
  @apply(int('rank', 0, 100)) rank!: number;

  @ApiPropertyOptional({ type: 'string', maxLength: 64 })
  @UnlessAbsent()
  @IsString({ message: 'The label field must be a string.' })
  @MaxLength(64, { message: 'The label field must not be greater than 64 characters.' })
  label?: string;
}

/** PUT /api/admin/kb/evidence-tiers: the whole tier map. */
export class EvidenceTiersDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 100, default: EVIDENCE_TIER_DEFAULTS.default_rank })
  @UnlessAbsent() @apply(int('default rank', 0, 100)) default_rank?: number;

  @ApiPropertyOptional({ type: () => [EvidenceTierDto], maxItems: 200 })
  @UnlessAbsent()
  @IsArray({ message: 'The tiers field must be an array.' })
  @ArrayMaxSize(200, { message: 'The tiers field must not have more than 200 items.' })
  @ValidateNested({ each: true })
  @Type(() => EvidenceTierDto)
  tiers?: EvidenceTierDto[];
}
