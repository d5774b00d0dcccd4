import { ValidateIf } from 'class-validator';
import { ASSERTIVENESS } from '../types';
import { ApiField, ApiFieldOptional } from './api-docs';
import {
  BudgetCap,
  Id,
  IdList,
  JsonObjectOrNull,
  NestedObject,
  NestedObjectOrNull,
  NonEmptyText,
  NonEmptyTextOrNull,
  ObjectList,
  OneOfOrBlank,
  ReviewFlag,
  TextOrNull,
  UtcInstant,
  MAX_CLAIMS,
  MAX_ID_LENGTH,
  MAX_SOURCE_IDS_PER_CLAIM,
  MAX_SOURCES,
  REVIEWED_AT_MAX,
  REVIEWED_AT_MIN,
} from './field-rules';

/**
 * The review request: what every adapter (HTTP body, CLI input, MCP assess arguments) accepts,
 * validated by parseReviewRequest and documented in OpenAPI from these same classes (api-docs.ts). Fields are
 * declared in the order their problems are listed; unknown fields are dropped, not refused.
 */
export class ClaimDto {
  @ApiField({ minLength: 1, maxLength: MAX_ID_LENGTH, example: 'c1' })
  @Id()
  id!: string;

  @ApiField({ minLength: 1, example: 'Vitamin C cures colds.' })
  @NonEmptyText()
  text!: string;

  @ApiFieldOptional({
    enum: ASSERTIVENESS,
    default: 'likely',
    description: 'How strongly the claim is asserted; stronger claims need stronger evidence',
  })
  @OneOfOrBlank(ASSERTIVENESS)
  assertiveness?: string | null;

  @ApiFieldOptional({
    type: 'array',
    items: { type: 'string', minLength: 1, maxLength: MAX_ID_LENGTH },
    maxItems: MAX_SOURCE_IDS_PER_CLAIM,
    description: `Ids of the sources cited for the claim (non-empty strings), at most ${MAX_SOURCE_IDS_PER_CLAIM}`,
    example: ['s1'],
  })
  @IdList(MAX_SOURCE_IDS_PER_CLAIM)
  source_ids?: string[];

  @ApiFieldOptional({ type: 'object', additionalProperties: true })
  @JsonObjectOrNull()
  metadata?: Record<string, unknown> | null;
}

export class SourceDto {
  @ApiField({ minLength: 1, maxLength: MAX_ID_LENGTH, example: 's1' })
  @Id()
  id!: string;

  @ApiFieldOptional({ type: 'string', nullable: true, example: 'https://doi.org/10.1000/1' })
  @TextOrNull()
  url?: string | null;

  @ApiFieldOptional({ type: 'string', nullable: true })
  @TextOrNull()
  title?: string | null;

  @ApiFieldOptional({ type: 'string', nullable: true })
  @TextOrNull()
  snippet?: string | null;

  @ApiFieldOptional({
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

  @ApiFieldOptional({ type: 'object', additionalProperties: true })
  @JsonObjectOrNull()
  metadata?: Record<string, unknown> | null;
}

export class ArtifactDto {
  @ApiField({ minLength: 1, example: 'answer-42' })
  @NonEmptyText()
  artifact_id!: string;

  @ApiField({
    minLength: 1,
    description: 'Only the model sees it; the deterministic checks read the claims',
  })
  @NonEmptyText()
  answer_text!: string;

  @ApiFieldOptional({ type: 'string', nullable: true })
  @TextOrNull()
  question?: string | null;

  @ApiFieldOptional({
    type: 'string',
    nullable: true,
    description: "Ignored over HTTP: the caller token's tenant decides where the review is logged",
  })
  @TextOrNull()
  tenant_id?: string | null;

  @ApiFieldOptional({
    type: [ClaimDto],
    maxItems: MAX_CLAIMS,
    description: `At most ${MAX_CLAIMS} claims (a longer list is refused, 422)`,
  })
  @ObjectList(() => ClaimDto, MAX_CLAIMS)
  claims?: ClaimDto[];

  @ApiFieldOptional({
    type: [SourceDto],
    maxItems: MAX_SOURCES,
    description: `At most ${MAX_SOURCES} sources (a longer list is refused, 422)`,
  })
  @ObjectList(() => SourceDto, MAX_SOURCES)
  sources?: SourceDto[];

  @ApiFieldOptional({ type: 'object', additionalProperties: true })
  @JsonObjectOrNull()
  metadata?: Record<string, unknown> | null;
}

/** Caps are whole numbers ≥ 0; a string of digits ("2") is read as its number. */
export class BudgetCapsDto {
  @ApiFieldOptional({ type: 'integer', minimum: 0 })
  @BudgetCap()
  max_llm_calls?: number | string;

  @ApiFieldOptional({ type: 'integer', minimum: 0 })
  @BudgetCap()
  max_tokens?: number | string;

  @ApiFieldOptional({ type: 'integer', minimum: 0 })
  @BudgetCap()
  max_heavy_checks?: number | string;

  @ApiFieldOptional({ type: 'integer', minimum: 0 })
  @BudgetCap()
  max_wall_seconds?: number | string;
}

export class ReviewOptionsDto {
  @ApiFieldOptional({
    type: 'string',
    default: 'default',
    description: 'A risk profile key (GET /profiles); an unknown key answers 404 unknown_profile',
  })
  @NonEmptyTextOrNull()
  profile_key?: string | null;

  @ApiFieldOptional({
    default: false,
    description: 'Let the model refine ambiguous source tiers (only with the LLM step enabled)',
  })
  @ReviewFlag()
  label_via_llm?: boolean;

  @ApiFieldOptional({ default: false, description: 'Review without appending to the log' })
  @ReviewFlag()
  dry_run?: boolean;

  @ApiFieldOptional({
    type: BudgetCapsDto,
    nullable: true,
    description: 'Caps below the configured ones; config bounds them',
  })
  @NestedObjectOrNull(() => BudgetCapsDto)
  budget?: BudgetCapsDto | null;

  @ApiFieldOptional({
    type: 'string',
    format: 'date-time',
    description: `Replay: review as of this instant (the result is then byte-identical); UTC, ${REVIEWED_AT_MIN} to ${REVIEWED_AT_MAX}. It does not place the review in the log, which lists reviews in the order they were logged`,
  })
  @UtcInstant()
  reviewed_at?: string | null;
}

/** The envelope; a request may also carry the artifact's fields at the top level, `options` beside them. */
export class ReviewRequestDto {
  @ApiField({
    type: ArtifactDto,
    description:
      'The artifact (its fields may also sit at the top level, with `options` beside them)',
  })
  @NestedObject(() => ArtifactDto)
  artifact!: ArtifactDto;

  @ApiFieldOptional({ type: ReviewOptionsDto })
  @NestedObjectOrNull(() => ReviewOptionsDto)
  options?: ReviewOptionsDto | null;
}
