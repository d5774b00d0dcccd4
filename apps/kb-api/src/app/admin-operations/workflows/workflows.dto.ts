import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../admin/pagination';

export const WORKFLOW_KINDS = ['promotion', 'ingest', 'connector_sync', 'command_run'] as const;
export type WorkflowKind = (typeof WORKFLOW_KINDS)[number];

export class ListWorkflowsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(WORKFLOW_KINDS, { message: `The selected kind is invalid (one of ${WORKFLOW_KINDS.join(', ')}).` })
  kind?: WorkflowKind;

  @IsOptional()
  @IsString({ message: 'The status field must be a string.' })
  @MaxLength(40, { message: 'The status field must not be greater than 40 characters.' })
  status?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The from field must be an ISO 8601 date or date-time.' })
  from?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The to field must be an ISO 8601 date or date-time.' })
  to?: string;
}
