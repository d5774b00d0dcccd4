import { ApiProperty } from '@nestjs/swagger';
import { CHECK_KINDS, COST_CLASSES, VERDICTS } from '@platform/evidence-engine';

/** An evidence tier as /taxonomy lists it (reference §1.2). */
export class TierDto {
  @ApiProperty({ example: 'peer_reviewed' })
  key!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100, example: 80, description: 'r(s): higher is stronger evidence' })
  rank!: number;

  @ApiProperty({ example: 'Peer-reviewed' })
  label!: string;

  @ApiProperty({ description: 'A built-in tier (false: added by config)' })
  builtin!: boolean;
}

export class FindingDto {
  @ApiProperty({ enum: CHECK_KINDS })
  check_kind!: string;

  @ApiProperty({ type: 'string', nullable: true })
  claim_id!: string | null;

  @ApiProperty({ enum: VERDICTS })
  verdict!: string;

  @ApiProperty()
  reason!: string;

  @ApiProperty({ type: 'string', nullable: true })
  suggested_rewrite!: string | null;

  @ApiProperty({ minimum: 0, maximum: 1 })
  confidence!: number;

  @ApiProperty({ enum: COST_CLASSES })
  cost_class!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  evidence!: Record<string, unknown>;
}

export class BudgetUsageDto {
  @ApiProperty({ type: 'integer', minimum: 0 })
  llm_calls!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  tokens!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  heavy_checks!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  wall_seconds!: number;
}

export class ReviewMetadataDto {
  @ApiProperty()
  dry_run!: boolean;

  @ApiProperty({ description: 'The model was consulted for the heavy risk check and answered' })
  heavy_checks_run!: boolean;

  @ApiProperty()
  llm_enabled!: boolean;
}

/** A review result; keys in this order (the stored copy is returned byte for byte). */
export class ReviewResultDto {
  @ApiProperty({ pattern: '^rev_[0-9a-f]{32}$', description: 'Derived from the canonical request and the profile: the same request has the same id' })
  review_id!: string;

  @ApiProperty()
  artifact_id!: string;

  @ApiProperty()
  profile_key!: string;

  @ApiProperty({ enum: VERDICTS, description: 'The worst verdict of any finding (keep when there is none)' })
  verdict!: string;

  @ApiProperty({ type: [FindingDto] })
  findings!: FindingDto[];

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', enum: [...VERDICTS] }, description: 'Claim id → worst verdict, in claim order; clean claims are absent' })
  claim_verdicts!: Record<string, string>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer', minimum: 0 },
    description: 'Claim id → g(c) = max(0, t(a,c) − max r(s)), for every claim, in claim order',
  })
  claim_gaps!: Record<string, number>;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/TierDto' },
    description: 'Source id → its tier as /taxonomy lists it, in source order',
  })
  source_tiers!: Record<string, TierDto>;

  @ApiProperty({ minimum: 0, maximum: 1, description: 'severity(verdict) / 3, to four decimals' })
  risk_score!: number;

  @ApiProperty({ type: BudgetUsageDto })
  budget!: BudgetUsageDto;

  @ApiProperty({ format: 'date-time' })
  reviewed_at!: string;

  @ApiProperty({ type: ReviewMetadataDto })
  metadata!: ReviewMetadataDto;
}
