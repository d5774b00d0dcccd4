import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Equals, IsOptional, IsString } from 'class-validator';
import { ClientAuthenticationForm, RESOURCE_PROPERTY } from './client-authentication.form';

/** POST /oauth/par (RFC 9126): the authorize parameters, checked as authorize checks them after parsing. */
export class PushedAuthorizationForm extends ClientAuthenticationForm {
  @ApiProperty({ enum: ['code'] })
  @IsOptional()
  @IsString()
  response_type!: string;

  @ApiPropertyOptional({ format: 'uri' }) @IsOptional() @IsString() redirect_uri?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() scope?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() state?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() nonce?: string;
  @ApiPropertyOptional({ pattern: '^[A-Za-z0-9_-]{43}$' }) @IsOptional() @IsString() code_challenge?: string;
  @ApiPropertyOptional({ enum: ['S256'] }) @IsOptional() @IsString() code_challenge_method?: string;
  @ApiPropertyOptional({ enum: ['none', 'login', 'consent'] }) @IsOptional() @IsString() prompt?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 0 }) @IsOptional() @IsString() max_age?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() acr_values?: string;
  @ApiPropertyOptional({ enum: ['query'] }) @IsOptional() @IsString() response_mode?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() id_token_hint?: string;
  @ApiPropertyOptional({ pattern: '^[A-Za-z0-9_-]{43}$' }) @IsOptional() @IsString() dpop_jkt?: string;
  @ApiPropertyOptional(RESOURCE_PROPERTY) resource?: string[];

  /** A pushed request cannot name another pushed request. */
  @Equals(undefined, { message: 'request_uri cannot be pushed' })
  request_uri?: undefined;
}
