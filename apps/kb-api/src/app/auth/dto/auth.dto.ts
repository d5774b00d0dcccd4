import { IntersectionType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

/** Body of forgot-password, and the email every other credential body carries. */
export class ForgotPasswordDto {
  /** Trimmed before validation; the identity key also lower-cases it. */
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsEmail({ require_tld: false }, { message: 'The email field must be a valid email address.' })
  @MaxLength(255)
  email!: string;
}

/** A second factor: a current TOTP code or an unused recovery code. */
export class TwoFactorCodeDto {
  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'The code must be 6 digits.' })
  code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  recovery_code?: string;
}

class PasswordDto extends ForgotPasswordDto {
  @IsString()
  @IsNotEmpty({ message: 'The password field is required.' })
  @MaxLength(1024)
  password!: string;
}

/** Email and password, plus the second factor when the account has one. */
class CredentialsDto extends IntersectionType(PasswordDto, TwoFactorCodeDto) {}

export class LoginDto extends CredentialsDto {
  @IsOptional()
  @IsBoolean()
  remember?: boolean;
}

export class TokenIssueDto extends CredentialsDto {
  @IsOptional()
  @IsString()
  @MaxLength(120, { message: 'The device name may not be greater than 120 characters.' })
  device_name?: string;
}

export class ResetPasswordDto extends ForgotPasswordDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token!: string;

  @IsString()
  @MinLength(8, { message: 'The password must be at least 8 characters.' })
  @MaxLength(1024)
  password!: string;

  @IsString()
  password_confirmation!: string;
}
