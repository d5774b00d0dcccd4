import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { RETURN_TO_MAX_LENGTH } from '../return-to';

/**
 * The sign-in pages' form bodies, read through readDto: a page answers a missing or wrong field
 * with the form again, its message next to the field (HTML, 400/401/403), never with a problem
 * document, so each message here is one a page shows. A field that fails its rules counts as
 * absent (an array from `a[]=x` included), which the handler answers as it answers an empty one.
 */
export class CsrfForm {
  @ApiProperty({ description: 'The CSRF token of the form (a keyed hash of the csrf cookie)' })
  @IsString()
  csrf!: string;
}

/** A form that continues to where the sign-in started (ReturnToLimit answers an over-long return_to with a 400 page before it is read). */
export class ReturningForm extends CsrfForm {
  @ApiPropertyOptional({ maxLength: RETURN_TO_MAX_LENGTH, description: 'Where to go next: only `/oauth/authorize?…` or `/login/account` are followed' })
  @IsOptional()
  @IsString()
  @MaxLength(RETURN_TO_MAX_LENGTH)
  return_to?: string;
}

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class PasswordSignInForm extends ReturningForm {
  @ApiProperty({ maxLength: 320 })
  @Transform(trimmed)
  @IsString({ message: 'Enter your email address.' })
  @IsNotEmpty({ message: 'Enter your email address.' })
  @MaxLength(320, { message: 'An email address has at most 320 characters.' })
  email!: string;

  @ApiProperty({ maxLength: 1024 })
  @IsString({ message: 'Enter your password.' })
  @IsNotEmpty({ message: 'Enter your password.' })
  @MaxLength(1024, { message: 'A password has at most 1024 characters.' })
  password!: string;
}

/** A code longer than any code counts as no code: the code check refuses it like a wrong one. */
const CODE_MAX_LENGTH = 100;

/** The second factor after the password, or a step-up. */
export class SecondFactorForm extends ReturningForm {
  @ApiPropertyOptional({ maxLength: CODE_MAX_LENGTH, description: 'A 6-digit TOTP code or a recovery code (xxxxx-xxxxx)' })
  @IsOptional()
  @IsString()
  @MaxLength(CODE_MAX_LENGTH)
  code?: string;
}

export class ConsentForm extends CsrfForm {
  @ApiProperty({ maxLength: RETURN_TO_MAX_LENGTH, description: 'The authorization request (`/oauth/authorize?…`) consented to' })
  @IsString()
  @MaxLength(RETURN_TO_MAX_LENGTH)
  return_to!: string;

  /** Anything but `allow` (missing or unknown included) is a refusal. */
  @ApiProperty({ enum: ['allow', 'deny'] })
  @IsIn(['allow', 'deny'])
  decision!: 'allow' | 'deny';
}

export class TotpConfirmForm extends CsrfForm {
  @ApiPropertyOptional({ maxLength: CODE_MAX_LENGTH, description: 'The 6-digit code the authenticator app shows' })
  @IsOptional()
  @IsString()
  @MaxLength(CODE_MAX_LENGTH)
  code?: string;
}

export class PasskeyRemovalForm extends CsrfForm {
  @ApiProperty({ maxLength: 1024 })
  @IsString()
  @MaxLength(1024)
  credential_id!: string;
}
