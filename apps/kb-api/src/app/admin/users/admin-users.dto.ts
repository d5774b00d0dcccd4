import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  MinLength,
} from 'class-validator';
import { Role, ROLES } from '../../identity/rbac';
import { PageQueryDto, queryBoolean, trimmed } from '../pagination';

const EMAIL = { require_tld: false };
const ROLE_LIST = `The selected roles are invalid (one of ${ROLES.join(', ')}).`;

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
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @trimmed()
  @IsString({ message: 'The name field is required.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name!: string;

  @ApiProperty({ format: 'email', maxLength: 255, description: 'Unique platform-wide (trimmed, case-insensitive)' })
  @trimmed()
  @IsEmail(EMAIL, { message: 'The email field must be a valid email address.' })
  @MaxLength(255, { message: 'The email field must not be greater than 255 characters.' })
  email!: string;

  @ApiProperty({ minLength: 8, maxLength: 1024, description: 'Stored as an argon2id hash' })
  @IsString({ message: 'The password field is required.' })
  @MinLength(8, { message: 'The password must be at least 8 characters.' })
  @MaxLength(1024, { message: 'The password must not be greater than 1024 characters.' })
  password!: string;

  @ApiPropertyOptional({ enum: ROLES, isArray: true, uniqueItems: true, maxItems: ROLES.length, default: [], description: 'Roles in the active tenant' })
  @IsOptional()
  @IsArray({ message: ROLE_LIST })
  @ArrayMaxSize(ROLES.length)
  @ArrayUnique({ message: 'The roles field has a duplicate value.' })
  @IsIn(ROLES, { each: true, message: ROLE_LIST })
  roles?: Role[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean({ message: 'The active field must be true or false.' })
  active?: boolean;
}

export class UpdateUserDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field must not be empty.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name?: string;

  @ApiPropertyOptional({ format: 'email', maxLength: 255 })
  @IsOptional()
  @trimmed()
  @IsEmail(EMAIL, { message: 'The email field must be a valid email address.' })
  @MaxLength(255, { message: 'The email field must not be greater than 255 characters.' })
  email?: string;

  @ApiPropertyOptional({ description: '`false` deactivates as the deactivate route does' })
  @IsOptional()
  @IsBoolean({ message: 'The active field must be true or false.' })
  active?: boolean;

  @ApiPropertyOptional({ enum: ROLES, isArray: true, uniqueItems: true, maxItems: ROLES.length, description: 'Replaces the role set in the active tenant' })
  @IsOptional()
  @IsArray({ message: ROLE_LIST })
  @ArrayMaxSize(ROLES.length)
  @ArrayUnique({ message: 'The roles field has a duplicate value.' })
  @IsIn(ROLES, { each: true, message: ROLE_LIST })
  roles?: Role[];
}
