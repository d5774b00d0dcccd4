import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { IsIn, IsObject, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../admin/pagination';
import { MAINTENANCE_COMMANDS } from './command-catalogue';

const NAMES = MAINTENANCE_COMMANDS.map((c) => c.name);
const UNKNOWN = `The selected command is invalid (one of ${NAMES.join(', ')}).`;

/** POST preview and run: the command and its parameters (checked against the command's own specs); `params` absent is none, null is refused. */
export class CommandRequestDto {
  @ApiProperty({ enum: NAMES })
  @IsIn(NAMES, { message: UNKNOWN })
  command!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The command's parameters (see the catalogue); unknown ones are refused as `errors[\"params.<name>\"]`",
  })
  @UnlessAbsent()
  @IsObject({ message: 'The params field must be an object.' })
  params?: Record<string, unknown>;
}

export class CommandHistoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: NAMES })
  @IsOptional()
  @IsIn(NAMES, { message: UNKNOWN })
  command?: string;

  @ApiPropertyOptional({ enum: ['running', 'succeeded', 'failed'] })
  @IsOptional()
  @IsIn(['running', 'succeeded', 'failed'], { message: 'The selected status is invalid (one of running, succeeded, failed).' })
  status?: string;
}
