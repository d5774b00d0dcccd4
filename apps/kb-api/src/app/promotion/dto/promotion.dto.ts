import { ArrayMaxSize, IsArray, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { trimmed } from '../../admin/pagination';


export class SuggestDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(50_000)
  transcript!: string;

  @IsOptional()
  @trimmed()
  @IsString()
  @MaxLength(120)
  project_key?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(200, { each: true })
  existing_slugs?: string[];
}

export class CandidatesDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200_000)
  markdown!: string;
}

export class PromoteDto {
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(120)
  project_key!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(200_000)
  markdown!: string;

  @IsOptional()
  @trimmed()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  title?: string;
}

/** The token may come in the body or as `?token=` (a link); `actor` names the human for the audit. */
export class ApproveDto {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  token?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  actor?: string;
}

export class RejectDto extends ApproveDto {
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
