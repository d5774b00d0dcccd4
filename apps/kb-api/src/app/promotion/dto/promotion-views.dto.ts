import { ApiProperty } from '@nestjs/swagger';
import { DATE_TIME, nullable } from '../../api-docs/schema';
import { MAX_SUGGESTIONS } from '../candidate-suggester';
import { CANONICAL_STATUSES, CANONICAL_TYPES } from '../canonical-types';

const SLUG = '^[a-z0-9][a-z0-9-]*$';
const SLUGS = { type: 'array', items: { type: 'string', pattern: SLUG } } as const;
const NULLABLE_STRING = nullable({ type: 'string' });
const FIELD_ERRORS = { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } as const;

export class PromotionCandidateDto {
  @ApiProperty({ enum: CANONICAL_TYPES })
  type!: string;

  @ApiProperty({ pattern: SLUG })
  slug_proposal!: string;

  @ApiProperty({ maxLength: 200 })
  title_proposal!: string;

  @ApiProperty({ maxLength: 500 })
  reason!: string;

  @ApiProperty(SLUGS)
  related!: string[];
}

export class PromotionSuggestionsDto {
  @ApiProperty({ type: [PromotionCandidateDto], maxItems: MAX_SUGGESTIONS })
  candidates!: PromotionCandidateDto[];
}

export class ParsedDraftDto {
  @ApiProperty(NULLABLE_STRING)
  doc_id!: string | null;

  @ApiProperty()
  slug!: string;

  @ApiProperty({ enum: CANONICAL_TYPES })
  type!: string;

  @ApiProperty({ enum: CANONICAL_STATUSES })
  status!: string;

  @ApiProperty(NULLABLE_STRING)
  title_line!: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100 })
  retrieval_priority!: number;

  @ApiProperty(SLUGS)
  related_slugs!: string[];

  @ApiProperty(SLUGS)
  supersedes_slugs!: string[];

  @ApiProperty(SLUGS)
  superseded_by_slugs!: string[];

  @ApiProperty({ type: [String] })
  tags!: string[];

  @ApiProperty({ type: [String] })
  owners!: string[];

  @ApiProperty(NULLABLE_STRING)
  summary!: string | null;
}

export class ValidDraftDto {
  @ApiProperty({ enum: [true] })
  valid!: true;

  @ApiProperty({ type: ParsedDraftDto })
  parsed!: ParsedDraftDto;
}

/** `{valid: false, errors}`: what is wrong with the draft, by field. */
export class InvalidDraftDto {
  @ApiProperty({ enum: [false] })
  valid!: false;

  @ApiProperty(FIELD_ERRORS)
  errors!: Record<string, string[]>;
}

/** A draft refused at promotion: no frontmatter, or frontmatter that does not check. */
export class DraftRefusalDto {
  @ApiProperty({ enum: ['no_frontmatter', 'invalid_frontmatter'] })
  error!: string;

  @ApiProperty()
  message!: string;

  @ApiProperty(FIELD_ERRORS)
  errors!: Record<string, string[]>;
}

class PendingApprovalDto {
  @ApiProperty({ format: 'uuid' })
  approval_id!: string;

  @ApiProperty({ description: 'Single use; only its hash is stored' })
  token!: string;

  @ApiProperty(DATE_TIME)
  expires_at!: string;

  @ApiProperty({ format: 'uri' })
  approve_url!: string;

  @ApiProperty({ format: 'uri' })
  reject_url!: string;

  @ApiProperty()
  approve_path!: string;

  @ApiProperty()
  reject_path!: string;
}

/** A draft paused at the human approval gate; the token appears only here. */
export class PausedPromotionDto {
  @ApiProperty({ enum: ['paused'] })
  status!: 'paused';

  @ApiProperty({ format: 'uuid' })
  flow_run_id!: string;

  @ApiProperty(NULLABLE_STRING)
  doc_id!: string | null;

  @ApiProperty()
  slug!: string;

  @ApiProperty({ description: '`<folder by type>/<slug>.md` in the project' })
  path!: string;

  @ApiProperty({ type: PendingApprovalDto })
  approval!: PendingApprovalDto;
}

export class PromotionAcceptedDto {
  @ApiProperty({ enum: ['accepted'] })
  status!: 'accepted';

  @ApiProperty({ format: 'uuid' })
  flow_run_id!: string;

  @ApiProperty({ format: 'uuid' })
  approval_id!: string;

  @ApiProperty()
  path!: string;

  @ApiProperty({ type: 'integer' })
  document_id!: number;
}

export class PromotionFailedDto {
  @ApiProperty({ enum: ['failed'] })
  status!: 'failed';

  @ApiProperty({ format: 'uuid' })
  flow_run_id!: string;

  @ApiProperty({ format: 'uuid' })
  approval_id!: string;

  @ApiProperty({ enum: ['write_canonical'] })
  failed_step!: string;
}

export class PromotionRejectedDto {
  @ApiProperty({ enum: ['rejected'] })
  status!: 'rejected';

  @ApiProperty({ format: 'uuid' })
  flow_run_id!: string;

  @ApiProperty({ format: 'uuid' })
  approval_id!: string;
}
