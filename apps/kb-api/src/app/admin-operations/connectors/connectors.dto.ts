import { IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto, trimmed } from '../../admin/pagination';

export const CONNECTOR_KINDS = ['filesystem', 'web'] as const;
const KIND = `The selected kind is invalid (one of ${CONNECTOR_KINDS.join(', ')}).`;

/** The kind-specific `config` is checked by the service: {path} for filesystem, {urls} for web. */
export class CreateConnectorDto {
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(120, { message: 'The name field must not be greater than 120 characters.' })
  name!: string;

  @IsIn(CONNECTOR_KINDS, { message: KIND })
  kind!: (typeof CONNECTOR_KINDS)[number];

  @IsOptional()
  @trimmed()
  @IsString({ message: 'The project key field must be a string.' })
  @IsNotEmpty({ message: 'The project key field must not be empty.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key?: string;

  @IsObject({ message: 'The config field must be an object.' })
  config!: Record<string, unknown>;

  @IsOptional()
  @IsBoolean({ message: 'The enabled field must be true or false.' })
  enabled?: boolean;
}

export class UpdateConnectorDto {
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field must not be empty.' })
  @MaxLength(120, { message: 'The name field must not be greater than 120 characters.' })
  name?: string;

  @IsOptional()
  @trimmed()
  @IsString({ message: 'The project key field must be a string.' })
  @IsNotEmpty({ message: 'The project key field must not be empty.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key?: string;

  @IsOptional()
  @IsObject({ message: 'The config field must be an object.' })
  config?: Record<string, unknown>;

  @IsOptional()
  @IsBoolean({ message: 'The enabled field must be true or false.' })
  enabled?: boolean;
}

export class ListConnectorsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(CONNECTOR_KINDS, { message: KIND })
  kind?: (typeof CONNECTOR_KINDS)[number];
}
