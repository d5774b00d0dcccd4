import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MinLength } from 'class-validator';
import { ClientAuthenticationForm } from './client-authentication.form';

/** POST /oauth/revoke (RFC 7009) and /oauth/introspect (RFC 7662). */
export class TokenHintForm extends ClientAuthenticationForm {
  @ApiProperty({ description: 'The access or refresh token' })
  @IsDefined({ message: 'token is required' })
  @IsString({ message: 'token is required' })
  @MinLength(1, { message: 'token is required' })
  token!: string;

  @ApiPropertyOptional({ enum: ['access_token', 'refresh_token'] })
  @IsOptional()
  @IsString()
  token_type_hint?: string;
}
