import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The sign-in pages' form bodies, as documented. No pipe checks them: a page answers a missing or
 * wrong field with the form again, its message next to the field (HTML, 400/401/403), so each
 * handler reads its fields as text itself (formText) and keeps the user's input.
 */
export class CsrfForm {
  @ApiProperty({ description: 'The CSRF token of the form (a keyed hash of the csrf cookie)' })
  csrf!: string;
}

/** A form that continues to where the sign-in started. */
export class ReturningForm extends CsrfForm {
  @ApiPropertyOptional({ maxLength: 2048, description: 'Where to go next: only `/oauth/authorize?…` or `/login/account` are followed' })
  return_to?: string;
}

export class PasswordSignInForm extends ReturningForm {
  @ApiProperty({ maxLength: 320 }) email!: string;
  @ApiProperty({ maxLength: 1024 }) password!: string;
}

/** The second factor after the password, or a step-up. */
export class SecondFactorForm extends ReturningForm {
  @ApiPropertyOptional({ maxLength: 100, description: 'A 6-digit TOTP code or a recovery code (xxxxx-xxxxx)' })
  code?: string;
}

export class ConsentForm extends CsrfForm {
  @ApiProperty({ maxLength: 2048, description: 'The authorization request (`/oauth/authorize?…`) consented to' }) return_to!: string;
  @ApiProperty({ enum: ['allow', 'deny'] }) decision!: string;
}

export class TotpConfirmForm extends CsrfForm {
  @ApiPropertyOptional({ maxLength: 100, description: 'The 6-digit code the authenticator app shows' }) code?: string;
}

export class PasskeyRemovalForm extends CsrfForm {
  @ApiProperty({ maxLength: 1024 }) credential_id!: string;
}
