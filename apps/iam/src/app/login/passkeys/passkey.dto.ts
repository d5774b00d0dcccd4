import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/*
 * The JSON the page's passkey script sends and receives, as documented. No pipe checks the
 * bodies: the WebAuthn library verifies the credential, and every refusal answers the script's
 * `{message}` (400/401/403) rather than a validation problem.
 */

export class PasskeyOptionsRequest {
  @ApiPropertyOptional({ description: 'Options for the signed-in user (step-up) rather than any passkey' }) step_up?: boolean;
}

export class PasskeySignInRequest {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'AuthenticationResponseJSON' }) credential!: object;
  @ApiPropertyOptional({ maxLength: 2048 }) return_to?: string;
}

export class PasskeyRegistrationRequest {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'RegistrationResponseJSON' }) credential!: object;
  @ApiPropertyOptional({ maxLength: 100, description: 'What the user calls it (the device it lives on)' }) name?: string;
}

/** Where the page goes next. */
export class PasskeyRedirect {
  @ApiProperty() redirect!: string;
}
