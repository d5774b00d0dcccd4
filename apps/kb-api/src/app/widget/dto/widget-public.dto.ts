import { applyDecorators } from '@nestjs/common';
import { UnlessAbsent } from '@platform/observability';
import { MAX_SNAPSHOT_BYTES } from '../widget-catalog';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsObject, IsOptional, IsString, IsUrl, IsUUID, Matches, MaxLength } from 'class-validator';
import { trimmed } from '../../admin/pagination';

const URL_OPTIONS = { require_tld: false, protocols: ['http', 'https'], require_protocol: true };

/** What the host page looks like now (bounded in bytes by the service, not here). */
const HostSnapshot = () =>
  applyDecorators(
    ApiProperty({ type: 'object', additionalProperties: true, description: `The host page as the widget sees it (at most ${MAX_SNAPSHOT_BYTES / 1024} KiB as JSON)` }),
    IsObject({ message: 'The snapshot field is required and must be an object.' }),
  );

/** What the visitor wrote, if anything; its failures are reported in the order the checks are listed. */
const VisitorMessage = () =>
  applyDecorators(
    ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 10000 }),
    UnlessAbsent(),
    trimmed(),
    MaxLength(10_000, { message: 'The message field must not be greater than 10000 characters.' }),
    IsNotEmpty({ message: 'The message field must not be empty.' }),
    IsString({ message: 'The message field must be a string.' }),
  );

export class SetupQueryDto {
  @ApiPropertyOptional({ type: 'string', maxLength: 80, description: 'Expected skill name@N' })
  @IsOptional()
  @IsString({ message: 'The skill field must be a string.' })
  @MaxLength(80, { message: 'The skill field must not be greater than 80 characters.' })
  skill?: string;
}

export class SessionTokenDto {
  @ApiPropertyOptional({ type: 'string', format: 'uuid', description: 'Open only this session, with its identity' })
  @UnlessAbsent()
  @IsUUID('all', { message: 'The session id field must be a widget session id.' })
  session_id?: string;
}

export class StartSessionDto {
  @HostSnapshot()
  snapshot!: Record<string, unknown>;

  @VisitorMessage()
  message?: string;

  @ApiPropertyOptional({ type: 'string', format: 'uri', maxLength: 2000 })
  @UnlessAbsent()
  @IsUrl(URL_OPTIONS, { message: 'The page url field must be an http(s) URL.' })
  @MaxLength(2000, { message: 'The page url field must not be greater than 2000 characters.' })
  page_url?: string;
}

export class StepDto {
  @HostSnapshot()
  snapshot!: Record<string, unknown>;

  @VisitorMessage()
  message?: string;

  /** The outcome of a host tool the page ran for the last tool_call. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The result of the host tool the last tool_call asked for' })
  @UnlessAbsent()
  @IsObject({ message: 'The tool result field must be an object.' })
  tool_result?: Record<string, unknown>;
}

export class ExecToolDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 80, description: 'A backend tool of the key\'s skill (kb_search)' })
  @IsString({ message: 'The tool field is required.' })
  @IsNotEmpty({ message: 'The tool field is required.' })
  @MaxLength(80, { message: 'The tool field must not be greater than 80 characters.' })
  tool!: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @UnlessAbsent()
  @IsObject({ message: 'The args field must be an object.' })
  args?: Record<string, unknown>;
}

export class UserTokenDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 255 })
  @trimmed()
  @IsString({ message: 'The subject field is required.' })
  @IsNotEmpty({ message: 'The subject field is required.' })
  @MaxLength(255, { message: 'The subject field must not be greater than 255 characters.' })
  subject!: string;

  @ApiProperty({ type: 'string', format: 'uri', maxLength: 300 })
  @IsString({ message: 'The origin field is required.' })
  @IsUrl(URL_OPTIONS, { message: 'The origin field must be an http(s) URL.' })
  @MaxLength(300, { message: 'The origin field must not be greater than 300 characters.' })
  origin!: string;

  @ApiPropertyOptional({ type: 'string', pattern: '^[a-z]{2}(-[A-Z]{2})?$' })
  @UnlessAbsent()
  @IsString({ message: 'The locale field must be a string.' })
  @Matches(/^[a-z]{2}(-[A-Z]{2})?$/, { message: 'The locale field must look like en or en-GB.' })
  locale?: string;
}
