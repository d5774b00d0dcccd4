import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { IsUserId, RangeQueryDto } from '../range-query.dto';

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

export class CanonicalAuditQueryDto extends RangeQueryDto {
  @IsOptional()
  @IsIn(PROMOTION_AUDIT_ACTIONS, {
    message: `The selected action is invalid (one of ${PROMOTION_AUDIT_ACTIONS.join(', ')}).`,
  })
  action?: string;

  @IsOptional()
  @IsUserId('actor')
  actor?: string;
}

export class ApplicationLogQueryDto extends RangeQueryDto {
  @IsOptional()
  @IsIn(APPLICATION_LEVELS, {
    message: `The selected level is invalid (one of ${APPLICATION_LEVELS.join(', ')}).`,
  })
  level?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'The status field must be an integer.' })
  @Min(500, { message: 'The status field must be at least 500.' })
  @Max(599, { message: 'The status field must not be greater than 599.' })
  status?: number;
}

export class ActivityLogQueryDto extends RangeQueryDto {
  @IsOptional()
  @IsUserId('actor')
  actor?: string;

  @IsOptional()
  @IsIn(MUTATION_METHODS, {
    message: `The selected method is invalid (one of ${MUTATION_METHODS.join(', ')}).`,
  })
  method?: string;

  @IsOptional()
  @IsIn(OUTCOMES, { message: `The selected outcome is invalid (one of ${OUTCOMES.join(', ')}).` })
  outcome?: string;
}
