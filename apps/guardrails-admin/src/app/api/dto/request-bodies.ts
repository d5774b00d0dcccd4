import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * Bodies the guardrails library checks itself (the approver's scalar fields, the settings
 * allow-list with its per-key messages); these classes document them and validate nothing twice.
 */
export class ApprovalDecisionBody {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Flat scalar fields describing the approver; principal_id and via are always set by the server',
  })
  actor?: Record<string, unknown>;
}

export class SettingsUpdateBody {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Dotted keys, e.g. {"modes.input_screen": "monitor"}' })
  settings!: Record<string, unknown>;
}
