import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { UnlessAbsent } from '@platform/observability';

/**
 * POST /approvals/{token}/approve|reject. The body is optional, and so is `actor`; when sent, `actor`
 * is an object. Which of its entries are kept is the guardrails library's rule (flat scalars only,
 * `principal_id` and `via` always the server's), so the object reaches it as sent.
 */
export class ApprovalDecisionBody {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Flat scalar fields describing the approver (other entries are dropped); principal_id and via are always set by the server',
  })
  @UnlessAbsent()
  @IsObject({ message: 'must be an object' })
  actor?: Record<string, unknown>;
}
