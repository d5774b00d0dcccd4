import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { CLIENT_JWKS_MAX_KEYS, IsClientJwks } from '../clients/client-jwks';
import { IsRedirectUris, REDIRECT_URI_MAX_LENGTH } from '../clients/redirect-uris';

export class ManifestAuthDto {
  @ApiProperty({ enum: ['confidential', 'public'] })
  @IsIn(['confidential', 'public'])
  client_type: 'confidential' | 'public';

  @ApiPropertyOptional({
    enum: ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'],
    description: 'Default: none for a public client, client_secret_basic for a confidential one',
  })
  @IsOptional()
  @IsIn(['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'])
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

  @ApiPropertyOptional({
    type: 'array',
    maxItems: 20,
    items: { type: 'string', format: 'uri', maxLength: REDIRECT_URI_MAX_LENGTH },
    description: 'http or https, without fragment (RFC 6749 §3.1.2) or user info; required for web and spa',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { each: true })
  // The rule /oauth/register and metadata documents apply too; an administrator may also name plain http hosts.
  @IsRedirectUris('any')
  redirect_uris?: string[];

  /** Public keys for private_key_jwt: what cannot verify an ES256 assertion is refused, never stored. */
  @ApiPropertyOptional({
    type: 'object',
    required: ['keys'],
    properties: {
      keys: {
        type: 'array',
        minItems: 1,
        maxItems: CLIENT_JWKS_MAX_KEYS,
        items: {
          type: 'object',
          required: ['kty', 'crv', 'x', 'y'],
          properties: {
            kty: { type: 'string', enum: ['EC'] },
            crv: { type: 'string', enum: ['P-256'] },
            x: { type: 'string' },
            y: { type: 'string' },
            alg: { type: 'string', enum: ['ES256'] },
            use: { type: 'string', enum: ['sig'] },
            kid: { type: 'string' },
          },
        },
      },
    },
    description: 'Public keys for private_key_jwt: EC P-256 (ES256) public JWKs that import; private members (d, …) are refused',
  })
  @IsOptional()
  @IsClientJwks()
  jwks?: { keys: Array<Record<string, unknown>> };

  @ApiPropertyOptional({ description: 'Rotate the secret every rotate_interval_days; the client picks it up at POST /oauth/client-secret' })
  @IsOptional()
  @IsBoolean()
  auto_rotate?: boolean;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 3650 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  rotate_interval_days?: number;
}

/** What an application declares about itself; applying it creates or updates its client. */
export class ApplicationManifestDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ enum: ['service', 'web', 'spa'] })
  @IsIn(['service', 'web', 'spa'])
  type: 'service' | 'web' | 'spa';

  @ApiProperty({ type: 'array', maxItems: 50, items: { type: 'string' }, description: 'Scopes of the catalog the client may ask for' })
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  scopes: string[];

  @ApiProperty({ type: ManifestAuthDto })
  // ValidateNested alone passes a missing value and checks an array element by element: the
  // service reads auth.client_type, so anything but an object is refused here by name.
  @IsObject()
  @ValidateNested()
  @Type(() => ManifestAuthDto)
  auth: ManifestAuthDto;
}
