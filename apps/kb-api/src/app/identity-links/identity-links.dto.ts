import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, IsUrl, Matches, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateIdentityLinkDto {
  /** The iam subject (`sub` of its access tokens: the iam user id). */
  @ApiProperty({ minLength: 1, maxLength: 255, description: 'The `sub` of the iam tokens (the iam user id)' })
  @Transform(trim)
  @IsString({ message: 'The subject field is required.' })
  @IsNotEmpty({ message: 'The subject field is required.' })
  @MaxLength(255, { message: 'The subject field must not be greater than 255 characters.' })
  subject!: string;

  /** The KB user of the active tenant the identity acts as. */
  @ApiProperty({ pattern: '^[1-9][0-9]*$', description: 'A user of the active tenant' })
  @IsString({ message: 'The user id field is required.' })
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'The selected user id is invalid.' })
  user_id!: string;

  /** The token issuer; default iam's (IAM_ISSUER). */
  @ApiPropertyOptional({ format: 'uri', maxLength: 500, description: 'Default: IAM_ISSUER' })
  @UnlessAbsent()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'] }, { message: 'The issuer field must be a valid URL.' })
  @MaxLength(500, { message: 'The issuer field must not be greater than 500 characters.' })
  issuer?: string;
}
