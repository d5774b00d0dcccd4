import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ASSERTIVENESS } from '@platform/evidence-engine';

/**
 * The documented shape of POST /reviews. The engine parses the body itself (parseReviewRequest,
 * shared with the CLI and the MCP assess tool), so every adapter refuses the same input with the
 * same `details`; these classes describe that contract and are not a second validator.
 */
export class ClaimDto {
  @ApiProperty({ minLength: 1, example: 'c1' })
  id!: string;

  @ApiProperty({ minLength: 1, example: 'Vitamin C cures colds.' })
  text!: string;

  @ApiPropertyOptional({ enum: ASSERTIVENESS, default: 'likely', description: 'How strongly the claim is asserted; stronger claims need stronger evidence' })
  assertiveness?: string;

  @ApiPropertyOptional({ type: [String], description: 'Ids of the sources cited for the claim (non-empty strings)', example: ['s1'] })
  source_ids?: string[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  metadata?: Record<string, unknown>;
}

export class SourceDto {
  @ApiProperty({ minLength: 1, example: 's1' })
  id!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, example: 'https://doi.org/10.1000/1' })
  url?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  title?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  snippet?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'A tier key; an unknown key counts as `unverified` (alias `declaredTier`)' })
  declared_tier?: string | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  metadata?: Record<string, unknown>;
}

export class ArtifactDto {
  @ApiProperty({ minLength: 1, example: 'answer-42' })
  artifact_id!: string;

  @ApiProperty({ minLength: 1, description: 'Only the model sees it; the deterministic checks read the claims' })
  answer_text!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  question?: string | null;

  @ApiPropertyOptional({ type: 'string', nullable: true, description: "Ignored over HTTP: the caller token's tenant decides where the review is logged" })
  tenant_id?: string | null;

  @ApiPropertyOptional({ type: [ClaimDto] })
  claims?: ClaimDto[];

  @ApiPropertyOptional({ type: [SourceDto] })
  sources?: SourceDto[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  metadata?: Record<string, unknown>;
}

export class BudgetCapsDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  max_llm_calls?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  max_tokens?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  max_heavy_checks?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  max_wall_seconds?: number;
}

export class ReviewOptionsDto {
  @ApiPropertyOptional({ default: 'default', description: 'A risk profile key (GET /profiles); an unknown key answers 404 unknown_profile' })
  profile_key?: string;

  @ApiPropertyOptional({ default: false, description: 'Review without appending to the log' })
  dry_run?: boolean;

  @ApiPropertyOptional({ default: false, description: 'Let the model refine ambiguous source tiers (only with the LLM step enabled)' })
  label_via_llm?: boolean;

  @ApiPropertyOptional({ format: 'date-time', description: 'Replay: review as of this instant (the result is then byte-identical)' })
  reviewed_at?: string;

  @ApiPropertyOptional({ type: BudgetCapsDto, nullable: true, description: 'Caps below the configured ones; config bounds them' })
  budget?: BudgetCapsDto | null;
}

export class ReviewRequestDto {
  @ApiProperty({ type: ArtifactDto, description: "The artifact (its fields may also sit at the top level, with `options` beside them)" })
  artifact!: ArtifactDto;

  @ApiPropertyOptional({ type: ReviewOptionsDto })
  options?: ReviewOptionsDto;
}
