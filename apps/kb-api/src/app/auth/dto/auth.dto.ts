import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';

const EMAIL = { require_tld: false };
/** Emails are trimmed before validation; the identity key also lower-cases them. */
const Trimmed = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

export class LoginDto {
  @Trimmed()
  @IsEmail(EMAIL, { message: 'The email field must be a valid email address.' })
  @MaxLength(255)
  email!: string;

  @IsString()
  @IsNotEmpty({ message: 'The password field is required.' })
  @MaxLength(1024)
  password!: string;

  @IsOptional()
  @IsBoolean()
  remember?: boolean;

  /** Current TOTP code, when the account has two-factor authentication. */
  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'The code must be 6 digits.' })
  code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  recovery_code?: string;
}

export class TokenIssueDto {
  @Trimmed()
  @IsEmail(EMAIL, { message: 'The email field must be a valid email address.' })
  @MaxLength(255)
  email!: string;

  @IsString()
  @IsNotEmpty({ message: 'The password field is required.' })
  @MaxLength(1024)
  password!: string;

  @IsOptional()
  @IsString()
  @MaxLength(120, { message: 'The device name may not be greater than 120 characters.' })
  device_name?: string;

  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'The code must be 6 digits.' })
  code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  recovery_code?: string;
}

export class ForgotPasswordDto {
  @Trimmed()
  @IsEmail(EMAIL, { message: 'The email field must be a valid email address.' })
  @MaxLength(255)
  email!: string;
}

export class ResetPasswordDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token!: string;

  @Trimmed()
  @IsEmail(EMAIL, { message: 'The email field must be a valid email address.' })
  @MaxLength(255)
  email!: string;

  @IsString()
  @MinLength(8, { message: 'The password must be at least 8 characters.' })
  @MaxLength(1024)
  password!: string;

  @IsString()
  password_confirmation!: string;
}

export class TwoFactorCodeDto {
  @IsOptional()
  @Matches(/^\d{6}$/, { message: 'The code must be 6 digits.' })
  code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  recovery_code?: string;
}
