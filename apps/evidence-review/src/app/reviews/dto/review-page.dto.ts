import { ApiProperty } from '@nestjs/swagger';
import { VERDICTS } from '@platform/evidence-engine';

/** One row of the review log as listed (the full result is GET /reviews/{id}). */
export class ReviewLogItemDto {
  @ApiProperty({ pattern: '^rev_[0-9a-f]{32}$' })
  review_id!: string;

  @ApiProperty()
  artifact_id!: string;

  @ApiProperty()
  profile_key!: string;

  @ApiProperty({ enum: VERDICTS })
  max_verdict!: string;

  @ApiProperty({ minimum: 0, maximum: 1 })
  risk_score!: number;

  @ApiProperty()
  tenant_id!: string;

  @ApiProperty({ format: 'date-time' })
  reviewed_at!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** A length-aware page of the caller tenant's review log. */
export class ReviewPageDto {
  @ApiProperty({ type: [ReviewLogItemDto] })
  data!: ReviewLogItemDto[];

  @ApiProperty({ type: 'integer', minimum: 1 })
  current_page!: number;

  @ApiProperty({ type: 'integer', minimum: 1 })
  last_page!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100 })
  per_page!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  total!: number;
}
