import { IsBoolean, IsISO8601, IsOptional, Matches } from 'class-validator';
import { PageQueryDto, queryBoolean } from '../admin/pagination';

/** A user id filter (`?user=` / `?actor=`): a row id, checked before it reaches a bigint cast. */
export const IsUserId = (field: string) =>
  Matches(/^[1-9][0-9]{0,17}$/, { message: `The ${field} field must be a user id.` });

/** `?page=&per_page=&search=&from=&to=` of the log lists; from/to are ISO 8601 instants, both inclusive. */
export class RangeQueryDto extends PageQueryDto {
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The from field must be an ISO 8601 date.' })
  from?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'The to field must be an ISO 8601 date.' })
  to?: string;
}

export class ChatLogQueryDto extends RangeQueryDto {
  @IsOptional()
  @IsUserId('user')
  user?: string;

  @IsOptional()
  @queryBoolean()
  @IsBoolean({ message: 'The refused field must be true or false.' })
  refused?: boolean;
}
