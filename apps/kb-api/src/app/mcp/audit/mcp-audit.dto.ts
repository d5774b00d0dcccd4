import { IsDateString, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../admin/pagination';
import type { McpCallOutcome } from './mcp-audit.repository';

const OUTCOMES: McpCallOutcome[] = ['ok', 'denied', 'error'];

export class McpAuditQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString({ message: 'The tool field must be a string.' })
  @MaxLength(100, { message: 'The tool field must not be greater than 100 characters.' })
  tool?: string;

  @IsOptional()
  @IsIn(OUTCOMES, { message: `The selected outcome is invalid (one of ${OUTCOMES.join(', ')}).` })
  outcome?: McpCallOutcome;

  @IsOptional()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'The token id field must be a token id.' })
  token_id?: string;

  @IsOptional()
  @IsDateString({ strict: true }, { message: 'The from field must be a valid date.' })
  from?: string;

  @IsOptional()
  @IsDateString({ strict: true }, { message: 'The to field must be a valid date.' })
  to?: string;
}
