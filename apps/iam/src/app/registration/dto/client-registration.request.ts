import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';

/**
 * RFC 7591 §2 client metadata accepted by POST /oauth/register. Only public, interactive clients
 * are registered here; metadata this server does not use (client_uri, logo_uri, contacts, …) is
 * ignored, as §2 allows. RegistrationService validates it (not the global pipe), so a failure
 * answers RFC 7591's `invalid_client_metadata` or `invalid_redirect_uri`.
 */
export class ClientRegistrationRequest {
  @ApiProperty({
    type: 'array',
    minItems: 1,
    maxItems: 20,
    items: { type: 'string', format: 'uri' },
    description: 'https, or http on a loopback address (RFC 8252)',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  redirect_uris: string[];

  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  client_name?: string;

  @ApiPropertyOptional({ enum: ['none'] })
  @IsOptional()
  @IsIn(['none'], { message: 'token_endpoint_auth_method must be none: clients registered here are public' })
  token_endpoint_auth_method?: string;

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', enum: ['authorization_code', 'refresh_token'] }, description: 'Default: authorization_code' })
  @IsOptional()
  @IsArray()
  @IsIn(['authorization_code', 'refresh_token'], { each: true, message: 'grant_types may only hold authorization_code and refresh_token' })
  grant_types?: string[];

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', enum: ['code'] } })
  @IsOptional()
  @IsArray()
  @IsIn(['code'], { each: true, message: 'response_types may only hold code' })
  response_types?: string[];

  @ApiPropertyOptional({ maxLength: 1000, description: 'Space-separated; what IAM_UNREGISTERED_CLIENT_SCOPES does not allow is left out' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  scope?: string;
}
