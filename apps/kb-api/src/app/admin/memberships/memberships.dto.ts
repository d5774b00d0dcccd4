import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  MEMBERSHIP_ROLES,
  MEMBERSHIP_SCOPES,
  MembershipRole,
  MembershipScope,
} from './memberships.repository';

const ROLE_MESSAGE = `The selected role is invalid (one of ${MEMBERSHIP_ROLES.join(', ')}).`;
const SCOPE_MESSAGE = `The selected scope is invalid (one of ${MEMBERSHIP_SCOPES.join(', ')}).`;

export class CreateMembershipDto {
  @ApiProperty({ minLength: 1, maxLength: 120, description: 'A project of the active tenant' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'The project key field is required.' })
  @IsNotEmpty({ message: 'The project key field is required.' })
  @MaxLength(120, { message: 'The project key field must not be greater than 120 characters.' })
  project_key!: string;

  @ApiPropertyOptional({ enum: MEMBERSHIP_ROLES, default: 'member' })
  @IsOptional()
  @IsIn(MEMBERSHIP_ROLES, { message: ROLE_MESSAGE })
  role?: MembershipRole;

  @ApiPropertyOptional({ enum: MEMBERSHIP_SCOPES, default: 'full' })
  @IsOptional()
  @IsIn(MEMBERSHIP_SCOPES, { message: SCOPE_MESSAGE })
  scope?: MembershipScope;
}

export class UpdateMembershipDto {
  @ApiPropertyOptional({ enum: MEMBERSHIP_ROLES })
  @IsOptional()
  @IsIn(MEMBERSHIP_ROLES, { message: ROLE_MESSAGE })
  role?: MembershipRole;

  @ApiPropertyOptional({ enum: MEMBERSHIP_SCOPES })
  @IsOptional()
  @IsIn(MEMBERSHIP_SCOPES, { message: SCOPE_MESSAGE })
  scope?: MembershipScope;
}
