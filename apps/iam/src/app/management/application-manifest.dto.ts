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

export class ManifestAuthDto {
  @IsIn(['confidential', 'public'])
  client_type: 'confidential' | 'public';

  @IsOptional()
  @IsIn(['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'])
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt' | 'none';

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { each: true })
  redirect_uris?: string[];

  /** Public keys for private_key_jwt. */
  @IsOptional()
  @IsObject()
  jwks?: { keys: Array<Record<string, unknown>> };

  @IsOptional()
  @IsBoolean()
  auto_rotate?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(3650)
  rotate_interval_days?: number;
}

/** What an application declares about itself; applying it creates or updates its client. */
export class ApplicationManifestDto {
  @IsString()
  @Length(1, 200)
  name: string;

  @IsIn(['service', 'web', 'spa'])
  type: 'service' | 'web' | 'spa';

  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  scopes: string[];

  @ValidateNested()
  @Type(() => ManifestAuthDto)
  auth: ManifestAuthDto;
}
