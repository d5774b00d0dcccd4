import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RESOURCE_PROPERTY } from './client-authentication.form';

/**
 * GET /oauth/authorize's parameters, as documented. No pipe checks them: once the client and its
 * redirect_uri are trusted, a bad parameter goes back to the client as a redirect with `error`
 * (RFC 6749 §4.1.2.1), so AuthorizeService checks them where it can answer that way; the
 * controller only refuses a repeated parameter (an HTML error page). The enums are named: a query
 * parameter exploded from a class keeps an enum only as a reference to a schema.
 */
export class AuthorizeQuery {
  @ApiProperty({ enum: ['code'], enumName: 'ResponseType' }) response_type!: string;
  @ApiProperty({ maxLength: 200 }) client_id!: string;
  @ApiPropertyOptional({ format: 'uri', description: "One of the client's registered redirect URIs" }) redirect_uri?: string;
  @ApiPropertyOptional({ description: 'Space-separated scopes' }) scope?: string;
  @ApiPropertyOptional() state?: string;
  @ApiPropertyOptional({ description: 'Copied into the id_token' }) nonce?: string;
  @ApiPropertyOptional({ pattern: '^[A-Za-z0-9_-]{43,128}$', description: 'BASE64URL(SHA-256(code_verifier)); required for public clients' })
  code_challenge?: string;
  @ApiPropertyOptional({ enum: ['S256'], enumName: 'CodeChallengeMethod' }) code_challenge_method?: string;
  @ApiPropertyOptional({ enum: ['none', 'login', 'consent'], enumName: 'Prompt' }) prompt?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Seconds since the last sign-in beyond which the user signs in again' }) max_age?: number;
  @ApiPropertyOptional({ description: 'Space-separated acceptable levels (`aal1`, `aal2`); the lowest known one is required' }) acr_values?: string;
  @ApiPropertyOptional(RESOURCE_PROPERTY) resource?: string[];
  @ApiPropertyOptional({ pattern: '^urn:ietf:params:oauth:request_uri:', description: 'A pushed request (RFC 9126), usable once' }) request_uri?: string;
  @ApiPropertyOptional({ pattern: '^[A-Za-z0-9_-]{43}$', description: 'RFC 9449 §10: the code is redeemed only with a DPoP proof of this key' })
  dpop_jkt?: string;
}
