import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Transform } from 'class-transformer';
import { IsBoolean, IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { IsEmailAddress } from '../../validation/email-address';

/** Body of forgot-password, and the email every other credential body carries. */
export class ForgotPasswordDto {
  /** Trimmed before validation; the identity key also lower-cases it. */
  @ApiProperty({ format: 'email', maxLength: 255, example: 'ada@example.com' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsEmailAddress({ require_tld: false }, { message: 'The email field must be a valid email address.' })
  @MaxLength(255)
  email!: string;
}

/** A second factor: a current TOTP code or an unused recovery code. */
export class TwoFactorCodeDto {
  @ApiPropertyOptional({ pattern: '^\\d{6}$', description: 'A current TOTP code', example: '123456' })
  @UnlessAbsent()
  @Matches(/^\d{6}$/, { message: 'The code must be 6 digits.' })
  code?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'An unused recovery code, instead of `code`' })
  @UnlessAbsent()
  @IsString()
  @MaxLength(64)
  recovery_code?: string;
}

class PasswordDto extends ForgotPasswordDto {
  @ApiProperty({ maxLength: 1024 })
  @IsString()
  @IsNotEmpty({ message: 'The password field is required.' })
  @MaxLength(1024)
  password!: string;
}

/** Email and password, plus the second factor when the account has one. */
class CredentialsDto extends IntersectionType(PasswordDto, TwoFactorCodeDto) {}

export class LoginDto extends CredentialsDto {
  @ApiPropertyOptional()
  @UnlessAbsent()
  @IsBoolean()
  remember?: boolean;
}

export class TokenIssueDto extends CredentialsDto {
  @ApiPropertyOptional({ maxLength: 120, default: 'desktop-demo', description: 'Names the token in the account\'s token list' })
  @UnlessAbsent()
  @IsString()
  @MaxLength(120, { message: 'The device name may not be greater than 120 characters.' })
  device_name?: string;
}

export class ResetPasswordDto extends ForgotPasswordDto {
  @ApiProperty({ maxLength: 200, description: 'The token of the reset link' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token!: string;

  @ApiProperty({ minLength: 8, maxLength: 1024 })
  @IsString()
  @MinLength(8, { message: 'The password must be at least 8 characters.' })
  @MaxLength(1024)
  password!: string;

  @ApiProperty({ description: 'Equal to `password`' })
  @IsString()
  password_confirmation!: string;
}
