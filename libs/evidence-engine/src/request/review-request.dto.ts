import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';
import { ASSERTIVENESS } from '../types';
import {
  BudgetCap,
  JsonObjectOrNull,
  NestedObject,
  NestedObjectOrNull,
  NonEmptyText,
  NonEmptyTextOrNull,
  ObjectList,
  OneOfOrBlank,
  ReviewFlag,
  TextList,
  TextOrNull,
  UtcInstant,
} from './field-rules';

/**
 * The review request: what every adapter (HTTP body, CLI input, MCP assess arguments) accepts,
 * validated by parseReviewRequest and documented in OpenAPI from these same classes. Fields are
 * declared in the order their problems are listed; unknown fields are dropped, not refused.
 */
export class ClaimDto {
  @ApiProperty({ minLength: 1, example: 'c1' })
  @NonEmptyText()
  id!: string;

  @ApiProperty({ minLength: 1, example: 'Vitamin C cures colds.' })
  @NonEmptyText()
  text!: string;

  @ApiPropertyOptional({
    enum: ASSERTIVENESS,
    default: 'likely',
    description: 'How strongly the claim is asserted; stronger claims need stronger evidence',
  })
  @OneOfOrBlank(ASSERTIVENESS)
  assertiveness?: string | null;

  @ApiPropertyOptional({
    type: [String],
    description: 'Ids of the sources cited for the claim (non-empty strings)',
    example: ['s1'],
  })
  @TextList()
  source_ids?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @JsonObjectOrNull()
  metadata?: Record<string, unknown> | null;
}

export class SourceDto {
  @ApiProperty({ minLength: 1, example: 's1' })
  @NonEmptyText()
  id!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, example: 'https://doi.org/10.1000/1' })
  @TextOrNull()
  url?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @TextOrNull()
  title?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @TextOrNull()
  snippet?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: 'A tier key; an unknown key counts as `unverified` (alias `declaredTier`)',
  })
  @TextOrNull()
  declared_tier?: string | null;

  /** The alias, read (and judged) only when declared_tier is left out; documented on declared_tier. */
  @ValidateIf((source: SourceDto) => source.declared_tier === undefined)
  @TextOrNull()
  declaredTier?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @JsonObjectOrNull()
  metadata?: Record<string, unknown> | null;
}

export class ArtifactDto {
  @ApiProperty({ minLength: 1, example: 'answer-42' })
  @NonEmptyText()
  artifact_id!: string;

  @ApiProperty({
    minLength: 1,
    description: 'Only the model sees it; the deterministic checks read the claims',
  })
  @NonEmptyText()
  answer_text!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  @TextOrNull()
  question?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    description: "Ignored over HTTP: the caller token's tenant decides where the review is logged",
  })
  @TextOrNull()
  tenant_id?: string | null;

  @ApiPropertyOptional({ type: [ClaimDto] })
  @ObjectList(() => ClaimDto)
  claims?: ClaimDto[];

  @ApiPropertyOptional({ type: [SourceDto] })
  @ObjectList(() => SourceDto)
  sources?: SourceDto[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @JsonObjectOrNull()
  metadata?: Record<string, unknown> | null;
}

/** Caps are whole numbers ≥ 0; a string of digits ("2") is read as its number. */
export class BudgetCapsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @BudgetCap()
  max_llm_calls?: number | string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @BudgetCap()
  max_tokens?: number | string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @BudgetCap()
  max_heavy_checks?: number | string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @BudgetCap()
  max_wall_seconds?: number | string;
}

export class ReviewOptionsDto {
  @ApiPropertyOptional({
    type: 'string',
    default: 'default',
    description: 'A risk profile key (GET /profiles); an unknown key answers 404 unknown_profile',
  })
  @NonEmptyTextOrNull()
  profile_key?: string | null;

  @ApiPropertyOptional({
    default: false,
    description: 'Let the model refine ambiguous source tiers (only with the LLM step enabled)',
  })
  @ReviewFlag()
  label_via_llm?: boolean;

  @ApiPropertyOptional({ default: false, description: 'Review without appending to the log' })
  @ReviewFlag()
  dry_run?: boolean;

  @ApiPropertyOptional({
    type: BudgetCapsDto,
    nullable: true,
    description: 'Caps below the configured ones; config bounds them',
  })
  @NestedObjectOrNull(() => BudgetCapsDto)
  budget?: BudgetCapsDto | null;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Replay: review as of this instant (the result is then byte-identical)',
  })
  @UtcInstant()
  reviewed_at?: string | null;
}

/** The envelope; a request may also carry the artifact's fields at the top level, `options` beside them. */
export class ReviewRequestDto {
  @ApiProperty({
    type: ArtifactDto,
    description:
      'The artifact (its fields may also sit at the top level, with `options` beside them)',
  })
  @NestedObject(() => ArtifactDto)
  artifact!: ArtifactDto;

  @ApiPropertyOptional({ type: ReviewOptionsDto })
  @NestedObjectOrNull(() => ReviewOptionsDto)
  options?: ReviewOptionsDto | null;
}
