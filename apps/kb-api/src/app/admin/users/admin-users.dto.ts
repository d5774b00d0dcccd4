import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { UnlessAbsent } from '@platform/observability';
import { IsEmailAddress } from '../../validation/email-address';
import { Role, ROLES } from '../../identity/rbac';
import { PageQueryDto, queryBoolean, trimmed } from '../pagination';

const EMAIL = { require_tld: false };
const ROLE_LIST = `The selected roles are invalid (one of ${ROLES.join(', ')}).`;

// The name, email and password of a new account, as every route that creates one (here and a
// tenant's admins) takes them. A field's failures are reported in the order its checks are listed.

/** 1 to 255 characters, trimmed. */
export const NewAccountName = () =>
  applyDecorators(
    ApiProperty({ minLength: 1, maxLength: 255 }),
    trimmed(),
    MaxLength(255, { message: 'The name field must not be greater than 255 characters.' }),
    IsNotEmpty({ message: 'The name field is required.' }),
    IsString({ message: 'The name field is required.' }),
  );

/** An address (no TLD needed) of at most 255 characters, trimmed. */
export const NewAccountEmail = (description: string) =>
  applyDecorators(
    ApiProperty({ format: 'email', maxLength: 255, description }),
    trimmed(),
    MaxLength(255, { message: 'The email field must not be greater than 255 characters.' }),
    IsEmailAddress(EMAIL, { message: 'The email field must be a valid email address.' }),
  );

/** 8 to 1024 characters, taken as sent. */
export const NewAccountPassword = (description?: string) =>
  applyDecorators(
    ApiProperty({ minLength: 8, maxLength: 1024, ...(description ? { description } : {}) }),
    MaxLength(1024, { message: 'The password must not be greater than 1024 characters.' }),
    MinLength(8, { message: 'The password must be at least 8 characters.' }),
    IsString({ message: 'The password field is required.' }),
  );

export class ListUsersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: 'string', enum: ['true', 'false', '1', '0'], description: 'Only active (or only inactive) accounts' })
  @IsOptional()
  @queryBoolean()
  @IsBoolean({ message: 'The active field must be true or false.' })
  active?: boolean;

  @ApiPropertyOptional({ enum: ROLES, description: 'Only holders of this role in the active tenant' })
  @IsOptional()
  @IsIn(ROLES, { message: `The selected role is invalid (one of ${ROLES.join(', ')}).` })
  role?: Role;
}

export class CreateUserDto {
  @NewAccountName()
  name!: string;

  @NewAccountEmail('Unique platform-wide (trimmed, case-insensitive)')
  email!: string;

  @NewAccountPassword('Stored as an argon2id hash')
  password!: string;

  @ApiPropertyOptional({ enum: ROLES, isArray: true, uniqueItems: true, maxItems: ROLES.length, default: [], description: 'Roles in the active tenant' })
  @UnlessAbsent()
  @IsArray({ message: ROLE_LIST })
  @ArrayMaxSize(ROLES.length)
  @ArrayUnique({ message: 'The roles field has a duplicate value.' })
  @IsIn(ROLES, { each: true, message: ROLE_LIST })
  roles?: Role[];

  @ApiPropertyOptional({ default: true })
  @UnlessAbsent()
  @IsBoolean({ message: 'The active field must be true or false.' })
  active?: boolean;
}

export class UpdateUserDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @UnlessAbsent()
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field must not be empty.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name?: string;

  @ApiPropertyOptional({ format: 'email', maxLength: 255 })
  @UnlessAbsent()
  @trimmed()
  @IsEmailAddress(EMAIL, { message: 'The email field must be a valid email address.' })
  @MaxLength(255, { message: 'The email field must not be greater than 255 characters.' })
  email?: string;

  @ApiPropertyOptional({ description: '`false` deactivates as the deactivate route does' })
  @UnlessAbsent()
  @IsBoolean({ message: 'The active field must be true or false.' })
  active?: boolean;

  @ApiPropertyOptional({ enum: ROLES, isArray: true, uniqueItems: true, maxItems: ROLES.length, description: 'Replaces the role set in the active tenant' })
  @UnlessAbsent()
  @IsArray({ message: ROLE_LIST })
  @ArrayMaxSize(ROLES.length)
  @ArrayUnique({ message: 'The roles field has a duplicate value.' })
  @IsIn(ROLES, { each: true, message: ROLE_LIST })
  roles?: Role[];
}
