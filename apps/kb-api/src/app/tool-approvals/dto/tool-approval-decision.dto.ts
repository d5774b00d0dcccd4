import { ApiProperty } from '@nestjs/swagger';

/** The answer of an approve or reject link: the decision and where the parked call stands. */
export class ToolApprovalDecisionDto {
  @ApiProperty({ enum: ['approved', 'rejected'] })
  status!: string;

  @ApiProperty({ format: 'uuid' })
  approval_id!: string;

  @ApiProperty()
  tool!: string;

  @ApiProperty({ enum: ['pending', 'running', 'succeeded', 'failed', 'rejected', 'expired'] })
  call_status!: string;
}
