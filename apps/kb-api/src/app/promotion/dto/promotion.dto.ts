import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { trimmed } from '../../admin/pagination';

export class SuggestDto {
  @ApiProperty({ minLength: 1, maxLength: 50_000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(50_000)
  transcript!: string;

  @ApiPropertyOptional({ maxLength: 120 })
  @UnlessAbsent()
  @trimmed()
  @IsString()
  @MaxLength(120)
  project_key?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 1000, items: { type: 'string', maxLength: 200 }, description: 'Slugs never proposed' })
  @UnlessAbsent()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  existing_slugs?: string[];
}

export class CandidatesDto {
  @ApiProperty({ minLength: 1, maxLength: 200_000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200_000)
  markdown!: string;
}

export class PromoteDto {
  @ApiProperty({ minLength: 1, maxLength: 120 })
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  project_key!: string;

  @ApiProperty({ minLength: 1, maxLength: 200_000 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200_000)
  markdown!: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 255, description: 'Default: the frontmatter title, else the first heading, else the slug' })
  @UnlessAbsent()
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title?: string;
}

/** The token may come in the body or as `?token=` (a link); `actor` names the human for the audit. */
export class ApproveDto {
  @ApiPropertyOptional({ maxLength: 200, description: 'The approval token, unless sent as `?token=`' })
  @UnlessAbsent()
  @IsString()
  @MaxLength(200)
  token?: string;

  @ApiPropertyOptional({ maxLength: 255, description: 'Name recorded in the audit' })
  @UnlessAbsent()
  @IsString()
  @MaxLength(255)
  actor?: string;
}

export class RejectDto extends ApproveDto {
  @ApiPropertyOptional({ maxLength: 500 })
  @UnlessAbsent()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
