import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { CONNECTOR_LIMITS } from './connector-settings';
import { ApiPropertySchema } from '../../api-docs';
import { IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { UnlessAbsent } from '@platform/observability';
import { PageQueryDto, trimmed } from '../../admin/pagination';

export const CONNECTOR_KINDS = ['filesystem', 'web'] as const;
/** The kind's `config`: `{path}` for filesystem, `{urls}` for web (checked by the service). */
export const CONNECTOR_CONFIG_SCHEMA: SchemaObject = {
  oneOf: [
    {
      type: 'object',
      required: ['path'],
      properties: { path: { type: 'string', description: 'An absolute directory under one of KB_CONNECTOR_FS_ROOTS' } },
    },
    {
      type: 'object',
      required: ['urls'],
      properties: {
        urls: {
          type: 'array',
          minItems: 1,
          maxItems: CONNECTOR_LIMITS.maxUrls,
          uniqueItems: true,
          items: {
            type: 'string',
            format: 'uri',
            maxLength: 2048,
            description: 'http(s); private and loopback addresses only when KB_CONNECTOR_WEB_ALLOWED_PRIVATE allows them',
          },
        },
      },
    },
  ],
};
const KIND = `The selected kind is invalid (one of ${CONNECTOR_KINDS.join(', ')}).`;

/** The kind-specific `config` is checked by the service: {path} for filesystem, {urls} for web. */
export class CreateConnectorDto {
  @ApiProperty({ type: 'string', minLength: 1, maxLength: 120, description: 'Unique per tenant (case-insensitive)' })
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(120, { message: 'The name field must not be greater than 120 characters.' })
  name!: string;

  @ApiProperty({ enum: CONNECTOR_KINDS })
  @IsIn(CONNECTOR_KINDS, { message: KIND })
  kind!: (typeof CONNECTOR_KINDS)[number];

  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 120, description: 'Project of the documents; default KB_INGEST_DEFAULT_PROJECT' })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The project key field must be a string.' })
  @IsNotEmpty({ message: 'The project key field must not be empty.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key?: string;

  @ApiPropertySchema(CONNECTOR_CONFIG_SCHEMA)
  @IsObject({ message: 'The config field must be an object.' })
  config!: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'boolean', default: true })
  @UnlessAbsent()
  @IsBoolean({ message: 'The enabled field must be true or false.' })
  enabled?: boolean;
}

/**
 * PATCH: each field absent keeps its value; null is not absent (422 naming the field), since the
 * service reads a present `config` as the kind's settings and would have nothing to check.
 */
export class UpdateConnectorDto {
  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 120 })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field must not be empty.' })
  @MaxLength(120, { message: 'The name field must not be greater than 120 characters.' })
  name?: string;

  @ApiPropertyOptional({ type: 'string', minLength: 1, maxLength: 120 })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The project key field must be a string.' })
  @IsNotEmpty({ message: 'The project key field must not be empty.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key?: string;

  @ApiPropertySchema(CONNECTOR_CONFIG_SCHEMA, { required: false })
  @UnlessAbsent()
  @IsObject({ message: 'The config field must be an object.' })
  config?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'boolean' })
  @UnlessAbsent()
  @IsBoolean({ message: 'The enabled field must be true or false.' })
  enabled?: boolean;
}

export class ListConnectorsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: CONNECTOR_KINDS })
  @IsOptional()
  @IsIn(CONNECTOR_KINDS, { message: KIND })
  kind?: (typeof CONNECTOR_KINDS)[number];
}
