import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { IsBoolean, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { RETURN_TO_MAX_LENGTH } from '../return-to';

/*
 * The JSON the page's passkey script sends and receives, read through readDto: every refusal
 * answers the script's `{message}` (400/401/403) rather than a validation problem, and the
 * WebAuthn library verifies what is inside a credential.
 */

export class PasskeyOptionsRequest {
  /** Anything but `true` asks for any passkey, as a sign-in does. */
  @ApiPropertyOptional({ description: 'Options for the signed-in user (step-up) rather than any passkey' })
  @IsOptional()
  @IsBoolean()
  step_up?: boolean;
}

export class PasskeySignInRequest {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'AuthenticationResponseJSON' })
  @IsObject()
  credential!: AuthenticationResponseJSON;

  /** A value that fails its rules falls back like any other return_to the pages do not follow. */
  @ApiPropertyOptional({ maxLength: RETURN_TO_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(RETURN_TO_MAX_LENGTH)
  return_to?: string;
}

export class PasskeyRegistrationRequest {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'RegistrationResponseJSON' })
  @IsObject()
  credential!: RegistrationResponseJSON;

  @ApiPropertyOptional({ maxLength: 100, description: 'What the user calls it (the device it lives on)' })
  @IsOptional()
  @IsString({ message: 'The passkey name must be text.' })
  @MaxLength(100, { message: 'A passkey name has at most 100 characters.' })
  name?: string;
}

/** Where the page goes next. */
export class PasskeyRedirect {
  @ApiProperty() redirect!: string;
}
