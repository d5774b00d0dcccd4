import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { IsUserId, RangeQueryDto, USER_ID_SCHEMA } from '../range-query.dto';
import { queryInteger } from '../../admin/pagination';

export const PROMOTION_AUDIT_ACTIONS = [
  'requested',
  'approved',
  'rejected',
  'denied',
  'dispatch_failed',
] as const;
export const APPLICATION_LEVELS = ['error', 'warning'] as const;
export const MUTATION_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const OUTCOMES = ['success', 'failure'] as const;

/** `?search=` of the canonical audit: actor label, source path and title. */
export class CanonicalAuditQueryDto extends RangeQueryDto {
  @ApiPropertyOptional({ enum: PROMOTION_AUDIT_ACTIONS })
  @IsOptional()
  @IsIn(PROMOTION_AUDIT_ACTIONS, {
    message: `The selected action is invalid (one of ${PROMOTION_AUDIT_ACTIONS.join(', ')}).`,
  })
  action?: string;

  @ApiPropertyOptional(USER_ID_SCHEMA)
  @IsOptional()
  @IsUserId('actor')
  actor?: string;
}

/** `?search=` of the application log: route, error class, code and request id. */
export class ApplicationLogQueryDto extends RangeQueryDto {
  @ApiPropertyOptional({ enum: APPLICATION_LEVELS })
  @IsOptional()
  @IsIn(APPLICATION_LEVELS, {
    message: `The selected level is invalid (one of ${APPLICATION_LEVELS.join(', ')}).`,
  })
  level?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 500, maximum: 599 })
  @IsOptional()
  @queryInteger()
  @IsInt({ message: 'The status field must be an integer.' })
  @Min(500, { message: 'The status field must be at least 500.' })
  @Max(599, { message: 'The status field must not be greater than 599.' })
  status?: number;
}

/** `?search=` of the activity log: route, target id and actor e-mail. */
export class ActivityLogQueryDto extends RangeQueryDto {
  @ApiPropertyOptional(USER_ID_SCHEMA)
  @IsOptional()
  @IsUserId('actor')
  actor?: string;

  @ApiPropertyOptional({ enum: MUTATION_METHODS })
  @IsOptional()
  @IsIn(MUTATION_METHODS, {
    message: `The selected method is invalid (one of ${MUTATION_METHODS.join(', ')}).`,
  })
  method?: string;

  @ApiPropertyOptional({ enum: OUTCOMES })
  @IsOptional()
  @IsIn(OUTCOMES, { message: `The selected outcome is invalid (one of ${OUTCOMES.join(', ')}).` })
  outcome?: string;
}
