import { IsIn, IsObject, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../admin/pagination';
import { MAINTENANCE_COMMANDS } from './command-catalogue';

const NAMES = MAINTENANCE_COMMANDS.map((c) => c.name);
const UNKNOWN = `The selected command is invalid (one of ${NAMES.join(', ')}).`;

/** POST preview and run: the command and its parameters (checked against the command's own specs). */
export class CommandRequestDto {
  @IsIn(NAMES, { message: UNKNOWN })
  command!: string;

  @IsOptional()
  @IsObject({ message: 'The params field must be an object.' })
  params?: Record<string, unknown>;
}

export class CommandHistoryQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(NAMES, { message: UNKNOWN })
  command?: string;

  @IsOptional()
  @IsIn(['running', 'succeeded', 'failed'], { message: 'The selected status is invalid (one of running, succeeded, failed).' })
  status?: string;
}
