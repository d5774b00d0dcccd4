import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsDateInput } from '../../validation/date-input';
import { PageQueryDto } from '../../admin/pagination';
import type { McpCallOutcome } from './mcp-audit.repository';

const OUTCOMES: McpCallOutcome[] = ['ok', 'denied', 'error'];

export class McpAuditQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'string', maxLength: 100 })
  @IsOptional()
  @IsString({ message: 'The tool field must be a string.' })
  @MaxLength(100, { message: 'The tool field must not be greater than 100 characters.' })
  tool?: string;

  @ApiPropertyOptional({ enum: OUTCOMES })
  @IsOptional()
  @IsIn(OUTCOMES, { message: `The selected outcome is invalid (one of ${OUTCOMES.join(', ')}).` })
  outcome?: McpCallOutcome;

  @ApiPropertyOptional({ type: 'string', pattern: '^[1-9][0-9]{0,17}$' })
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'The token id field must be a token id.' })
  token_id?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Inclusive; a date or a date-time' })
  @IsOptional()
  @IsDateInput('from')
  from?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Inclusive; a date covers its whole day' })
  @IsOptional()
  @IsDateInput('to')
  to?: string;
}
