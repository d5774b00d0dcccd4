import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { ClientAuthenticationForm, RESOURCE_PROPERTY } from './client-authentication.form';

export const GRANT_TYPES = ['authorization_code', 'client_credentials', 'refresh_token'] as const;

/** POST /oauth/token (RFC 6749 §4.1.3, §4.4.2, §6). Another grant_type is unsupported_grant_type, checked after parsing. */
export class TokenForm extends ClientAuthenticationForm {
  @ApiProperty({ enum: GRANT_TYPES })
  @IsDefined({ message: 'grant_type is required' })
  @IsNotEmpty({ message: 'grant_type is required' })
  @IsString()
  grant_type!: string;

  @ApiPropertyOptional({ description: 'authorization_code: the code' })
  @IsOptional()
  @IsString()
  code?: string;

  @ApiPropertyOptional({ pattern: '^[A-Za-z0-9._~-]{43,128}$', description: 'authorization_code: the PKCE verifier' })
  @IsOptional()
  @IsString()
  code_verifier?: string;

  @ApiPropertyOptional({ format: 'uri', description: 'authorization_code: the redirect_uri of the authorization request' })
  @IsOptional()
  @IsString()
  redirect_uri?: string;

  @ApiPropertyOptional({ description: 'refresh_token: the refresh token (rotated on every use)' })
  @IsOptional()
  @IsString()
  refresh_token?: string;

  @ApiPropertyOptional({ description: 'Space-separated; an unknown scope is invalid_scope, a known one the client may not have is dropped' })
  @IsOptional()
  @IsString()
  scope?: string;

  @ApiPropertyOptional(RESOURCE_PROPERTY)
  resource?: string[];
}
