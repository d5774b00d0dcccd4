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
  @IsOptional()
  @queryBoolean()
  @IsBoolean({ message: 'The active field must be true or false.' })
  active?: boolean;

  @IsOptional()
  @IsIn(ROLES, { message: `The selected role is invalid (one of ${ROLES.join(', ')}).` })
  role?: Role;
}

export class CreateUserDto {
  @trimmed()
  @IsString({ message: 'The name field is required.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name!: string;

  @trimmed()
  @IsEmail(EMAIL, { message: 'The email field must be a valid email address.' })
  @MaxLength(255, { message: 'The email field must not be greater than 255 characters.' })
  email!: string;

  @IsString({ message: 'The password field is required.' })
  @MinLength(8, { message: 'The password must be at least 8 characters.' })
  @MaxLength(1024, { message: 'The password must not be greater than 1024 characters.' })
  password!: string;

  @IsOptional()
  @IsArray({ message: ROLE_LIST })
  @ArrayMaxSize(ROLES.length)
  @ArrayUnique({ message: 'The roles field has a duplicate value.' })
  @IsIn(ROLES, { each: true, message: ROLE_LIST })
  roles?: Role[];

  @IsOptional()
  @IsBoolean({ message: 'The active field must be true or false.' })
  active?: boolean;
}

export class UpdateUserDto {
  @IsOptional()
  @trimmed()
  @IsString({ message: 'The name field must be a string.' })
  @IsNotEmpty({ message: 'The name field must not be empty.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name?: string;

  @IsOptional()
  @trimmed()
  @IsEmail(EMAIL, { message: 'The email field must be a valid email address.' })
  @MaxLength(255, { message: 'The email field must not be greater than 255 characters.' })
  email?: string;

  @IsOptional()
  @IsBoolean({ message: 'The active field must be true or false.' })
  active?: boolean;

  @IsOptional()
  @IsArray({ message: ROLE_LIST })
  @ArrayMaxSize(ROLES.length)
  @ArrayUnique({ message: 'The roles field has a duplicate value.' })
  @IsIn(ROLES, { each: true, message: ROLE_LIST })
  roles?: Role[];
}
