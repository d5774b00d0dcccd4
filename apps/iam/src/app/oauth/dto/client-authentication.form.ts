import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * Client authentication in the body of a token, PAR, revocation or introspection request:
 * `client_secret_post`, `private_key_jwt` or a public client's `client_id` alone (HTTP Basic
 * travels in the Authorization header instead). Failed client authentication is 401 invalid_client.
 */
export class ClientAuthenticationForm {
  @ApiPropertyOptional({ description: 'The client (public clients, client_secret_post)' })
  @IsOptional()
  @IsString()
  client_id?: string;

  @ApiPropertyOptional({ description: 'client_secret_post' })
  @IsOptional()
  @IsString()
  client_secret?: string;

  @ApiPropertyOptional({ enum: [CLIENT_ASSERTION_TYPE] })
  @IsOptional()
  @IsString()
  client_assertion_type?: string;

  @ApiPropertyOptional({ description: 'ES256 JWT signed by the client (private_key_jwt)' })
  @IsOptional()
  @IsString()
  client_assertion?: string;
}

/** RFC 8707 resource indicator, repeatable (documented on each form that takes it; parsed apart). */
export const RESOURCE_PROPERTY = {
  type: 'array',
  items: { type: 'string', format: 'uri' },
  required: false,
  description:
    "RFC 8707 resource indicator, repeatable: the access token's `aud`; each must be one of IAM_RESOURCE_INDICATORS (`resources_supported` in discovery), else `invalid_target`",
} as const;

