import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, Matches } from 'class-validator';
import { PageQueryDto, queryBoolean } from '../admin/pagination';
import { IsDateInput } from '../validation/date-input';

/** A user id filter (`?user=` / `?actor=`): a row id, checked before it reaches a bigint cast. */
export const IsUserId = (field: string) =>
  Matches(/^[1-9][0-9]{0,17}$/, { message: `The ${field} field must be a user id.` });

/** The document's side of IsUserId. */
export const USER_ID_SCHEMA = { type: 'string', pattern: '^[1-9][0-9]{0,17}$' } as const;

/** `?page=&per_page=&search=&from=&to=` of the log lists; from/to are ISO 8601 instants, both inclusive. */
export class RangeQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Inclusive lower bound (ISO 8601)' })
  @IsOptional()
  @IsDateInput('from')
  from?: string;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', description: 'Inclusive upper bound (ISO 8601)' })
  @IsOptional()
  @IsDateInput('to')
  to?: string;
}

export class ChatLogQueryDto extends RangeQueryDto {
  @ApiPropertyOptional({ ...USER_ID_SCHEMA, description: 'Asked by this user' })
  @IsOptional()
  @IsUserId('user')
  user?: string;

  @ApiPropertyOptional({ type: 'boolean', description: 'true: refusals only; false: answers only (1/0 also read)' })
  @IsOptional()
  @queryBoolean()
  @IsBoolean({ message: 'The refused field must be true or false.' })
  refused?: boolean;
}
