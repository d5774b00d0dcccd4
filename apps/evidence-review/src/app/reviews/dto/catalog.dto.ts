import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';
import { ASSERTIVENESS, CHECK_KINDS, VERDICTS } from '@platform/evidence-engine';
import { TierDto } from './review-result.dto';

/** Minimum tier key per assertiveness level: t(a, c) is that tier's rank. */
const minTier: ApiPropertyOptions = {
  type: 'object',
  properties: Object.fromEntries(ASSERTIVENESS.map((a) => [a, { type: 'string' }])),
  required: [...ASSERTIVENESS],
  description: 'Assertiveness → the tier key a claim so asserted needs',
};

export class ProfileSummaryDto {
  @ApiProperty({ example: 'medical' })
  key!: string;

  @ApiProperty()
  label!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...CHECK_KINDS] }, description: 'In check order' })
  enabled_checks!: string[];

  @ApiProperty(minTier)
  min_tier!: Record<string, string>;
}

export class CheckSettingsDto {
  @ApiProperty({ enum: VERDICTS })
  verdict!: string;

  @ApiPropertyOptional({ type: [String], description: 'Keyword checks only: the first match in list order wins' })
  keywords?: string[];
}

@ApiExtraModels(CheckSettingsDto)
export class ProfileDetailDto extends ProfileSummaryDto {
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(CheckSettingsDto) }, description: 'Check kind → its settings, for the enabled checks' })
  checks!: Record<string, CheckSettingsDto>;
}

@ApiExtraModels(ProfileSummaryDto)
export class ProfilesDto {
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(ProfileSummaryDto) }, description: 'Profile key → summary' })
  profiles!: Record<string, ProfileSummaryDto>;
}

export class ProfileDto {
  @ApiProperty({ type: ProfileDetailDto })
  profile!: ProfileDetailDto;
}

export class VerdictSeverityDto {
  @ApiProperty({ enum: VERDICTS })
  key!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 3 })
  severity!: number;
}

@ApiExtraModels(TierDto)
export class TaxonomyDto {
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(TierDto) }, description: 'Tier key → tier, by rank descending then key' })
  tiers!: Record<string, TierDto>;

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...CHECK_KINDS] } })
  risk_checks!: string[];

  @ApiProperty({ type: [VerdictSeverityDto] })
  risk_verdicts!: VerdictSeverityDto[];

  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...ASSERTIVENESS] } })
  claim_assertiveness!: string[];
}
