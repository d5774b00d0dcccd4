import { IsNotEmpty, IsObject, IsOptional, IsString, IsUrl, IsUUID, Matches, MaxLength } from 'class-validator';
import { trimmed } from '../../admin/pagination';

const URL_OPTIONS = { require_tld: false, protocols: ['http', 'https'], require_protocol: true };

export class SetupQueryDto {
  @IsOptional()
  @IsString({ message: 'The skill field must be a string.' })
  @MaxLength(80, { message: 'The skill field must not be greater than 80 characters.' })
  skill?: string;
}

export class SessionTokenDto {
  @IsOptional()
  @IsUUID('all', { message: 'The session id field must be a widget session id.' })
  session_id?: string;
}

export class StartSessionDto {
  /** What the host page looks like now (bounded in bytes by the service, not here). */
  @IsObject({ message: 'The snapshot field is required and must be an object.' })
  snapshot!: Record<string, unknown>;

  @IsOptional()
  @trimmed()
  @IsString({ message: 'The message field must be a string.' })
  @IsNotEmpty({ message: 'The message field must not be empty.' })
  @MaxLength(10_000, { message: 'The message field must not be greater than 10000 characters.' })
  message?: string;

  @IsOptional()
  @IsUrl(URL_OPTIONS, { message: 'The page url field must be an http(s) URL.' })
  @MaxLength(2000, { message: 'The page url field must not be greater than 2000 characters.' })
  page_url?: string;
}

export class StepDto {
  @IsObject({ message: 'The snapshot field is required and must be an object.' })
  snapshot!: Record<string, unknown>;

  @IsOptional()
  @trimmed()
  @IsString({ message: 'The message field must be a string.' })
  @IsNotEmpty({ message: 'The message field must not be empty.' })
  @MaxLength(10_000, { message: 'The message field must not be greater than 10000 characters.' })
  message?: string;

  /** The outcome of a host tool the page ran for the last tool_call. */
  @IsOptional()
  @IsObject({ message: 'The tool result field must be an object.' })
  tool_result?: Record<string, unknown>;
}

export class ExecToolDto {
  @IsString({ message: 'The tool field is required.' })
  @IsNotEmpty({ message: 'The tool field is required.' })
  @MaxLength(80, { message: 'The tool field must not be greater than 80 characters.' })
  tool!: string;

  @IsOptional()
  @IsObject({ message: 'The args field must be an object.' })
  args?: Record<string, unknown>;
}

export class UserTokenDto {
  @trimmed()
  @IsString({ message: 'The subject field is required.' })
  @IsNotEmpty({ message: 'The subject field is required.' })
  @MaxLength(255, { message: 'The subject field must not be greater than 255 characters.' })
  subject!: string;

  @IsString({ message: 'The origin field is required.' })
  @IsUrl(URL_OPTIONS, { message: 'The origin field must be an http(s) URL.' })
  @MaxLength(300, { message: 'The origin field must not be greater than 300 characters.' })
  origin!: string;

  @IsOptional()
  @IsString({ message: 'The locale field must be a string.' })
  @Matches(/^[a-z]{2}(-[A-Z]{2})?$/, { message: 'The locale field must look like en or en-GB.' })
  locale?: string;
}
