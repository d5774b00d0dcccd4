import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';

/**
 * RFC 7591 §2 client metadata accepted by POST /oauth/register. Only public, interactive clients
 * are registered here; metadata this server does not use (client_uri, logo_uri, contacts, …) is
 * ignored, as §2 allows.
 */
export class ClientRegistrationRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsString({ each: true })
  redirect_uris: string[];

  @IsOptional()
  @IsString()
  @Length(1, 200)
  client_name?: string;

  @IsOptional()
  @IsIn(['none'], { message: 'token_endpoint_auth_method must be none: clients registered here are public' })
  token_endpoint_auth_method?: string;

  @IsOptional()
  @IsArray()
  @IsIn(['authorization_code', 'refresh_token'], { each: true, message: 'grant_types may only hold authorization_code and refresh_token' })
  grant_types?: string[];

  @IsOptional()
  @IsArray()
  @IsIn(['code'], { each: true, message: 'response_types may only hold code' })
  response_types?: string[];

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  scope?: string;
}
