import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Equals, IsInt, IsOptional, IsString, Matches, Min, ValidateIf } from 'class-validator';
import { RESOURCE_PROPERTY } from './client-authentication.form';

/** RFC 7636 §4.2 with S256, and an RFC 7638 SHA-256 thumbprint: base64url of 32 bytes. */
const SHA256_BASE64URL = /^[A-Za-z0-9_-]{43}$/;

const asksForPkce = (q: AuthorizeQuery) => q.code_challenge !== undefined || q.code_challenge_method !== undefined;

/**
 * GET /oauth/authorize's parameters, and a pushed request's (RFC 9126), read through readDto by
 * AuthorizeService once the client and its redirect_uri are trusted: a field this DTO refuses goes
 * back to the client as a redirect with `invalid_request` and the field's message (RFC 6749
 * §4.1.2.1). What depends on the client (response_type it may use, scopes, resource indicators,
 * whether PKCE is required) is checked by the service; parameters not declared here are ignored
 * (RFC 6749 §3.1). The enums are named: a query parameter exploded from a class keeps an enum only
 * as a reference to a schema.
 */
export class AuthorizeQuery {
  /** Anything but `code` is unsupported_response_type, which the service answers. */
  @ApiProperty({ enum: ['code'], enumName: 'ResponseType' })
  @IsOptional()
  @IsString()
  response_type?: string;

  @ApiProperty({ description: 'A registered client, or the https URL of a client metadata document' })
  @IsOptional()
  @IsString()
  client_id?: string;

  @ApiPropertyOptional({ format: 'uri', description: "One of the client's registered redirect URIs" })
  @IsOptional()
  @IsString()
  redirect_uri?: string;

  /** Discovery lists `query` alone (response_modes_supported): another mode would be answered where the client does not look. */
  @ApiPropertyOptional({ enum: ['query'], enumName: 'ResponseMode' })
  @IsOptional()
  @Equals('query', { message: 'response_mode must be query, the only one supported' })
  response_mode?: string;

  @ApiPropertyOptional({ description: 'Space-separated scopes' }) @IsOptional() @IsString() scope?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() state?: string;
  @ApiPropertyOptional({ description: 'Copied into the id_token' }) @IsOptional() @IsString() nonce?: string;

  /** Checked before code_challenge: a challenge without its method is answered by naming S256. */
  @ApiPropertyOptional({ enum: ['S256'], enumName: 'CodeChallengeMethod' })
  @ValidateIf(asksForPkce)
  @Equals('S256', { message: 'code_challenge_method must be S256' })
  code_challenge_method?: string;

  @ApiPropertyOptional({ pattern: SHA256_BASE64URL.source, description: 'BASE64URL(SHA-256(code_verifier)), with code_challenge_method S256; required for public clients' })
  @ValidateIf(asksForPkce)
  @Matches(SHA256_BASE64URL, { message: 'code_challenge must be a base64url SHA-256 digest' })
  code_challenge?: string;

  @ApiPropertyOptional({ enum: ['none', 'login', 'consent'], enumName: 'Prompt', description: 'Space-separated; values not listed are ignored' })
  @IsOptional()
  @IsString()
  prompt?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Seconds since the last sign-in beyond which the user signs in again' })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? Number(value) : value))
  @IsInt({ message: 'max_age must be a non-negative integer' })
  @Min(0, { message: 'max_age must be a non-negative integer' })
  max_age?: number;

  @ApiPropertyOptional({ description: 'An id_token this server issued (expired or not); with prompt=none, a session of another user (or a hint that is not such a token) answers login_required' })
  @IsOptional()
  @IsString()
  id_token_hint?: string;

  @ApiPropertyOptional({ description: 'Request objects are not supported (request_object_signing_alg_values_supported is not published): answered `request_not_supported`' })
  @IsOptional()
  @IsString()
  request?: string;

  @ApiPropertyOptional({ description: 'Space-separated acceptable levels (`aal1`, `aal2`); the lowest known one is required' })
  @IsOptional()
  @IsString()
  acr_values?: string;

  /** One value arrives as a string, several as an array (RFC 8707 §2). */
  @ApiPropertyOptional(RESOURCE_PROPERTY)
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? [value] : value))
  @IsString({ each: true, message: 'resource must be a URI' })
  resource?: string[];

  @ApiPropertyOptional({ pattern: '^urn:ietf:params:oauth:request_uri:', description: 'A pushed request (RFC 9126), usable once' })
  @IsOptional()
  @IsString()
  request_uri?: string;

  @ApiPropertyOptional({ pattern: SHA256_BASE64URL.source, description: 'RFC 9449 §10: the code is redeemed only with a DPoP proof of this key' })
  @IsOptional()
  @Matches(SHA256_BASE64URL, { message: 'dpop_jkt must be a base64url SHA-256 JWK thumbprint' })
  dpop_jkt?: string;
}
