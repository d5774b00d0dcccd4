import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../admin/pagination';
import { IsDateInput } from '../../validation/date-input';

export const WORKFLOW_KINDS = ['promotion', 'ingest', 'connector_sync', 'command_run'] as const;
export type WorkflowKind = (typeof WORKFLOW_KINDS)[number];

export class ListWorkflowsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: WORKFLOW_KINDS })
  @IsOptional()
  @IsIn(WORKFLOW_KINDS, { message: `The selected kind is invalid (one of ${WORKFLOW_KINDS.join(', ')}).` })
  kind?: WorkflowKind;

  @ApiPropertyOptional({
    type: 'string',
    maxLength: 40,
    description:
      "The kind's own status (promotion pending/approved/rejected/failed, ingest pending/indexed/failed, sync running/succeeded/partial/failed, command running/succeeded/failed)",
  })
  @IsOptional()
  @IsString({ message: 'The status field must be a string.' })
  @MaxLength(40, { message: 'The status field must not be greater than 40 characters.' })
  status?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Started at or after' })
  @IsOptional()
  @IsDateInput('from')
  from?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Started at or before' })
  @IsOptional()
  @IsDateInput('to')
  to?: string;
}
