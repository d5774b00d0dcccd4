import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { UnlessAbsent } from '@platform/observability';
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
  @UnlessAbsent()
  @IsIn(MEMBERSHIP_ROLES, { message: ROLE_MESSAGE })
  role?: MembershipRole;

  @ApiPropertyOptional({ enum: MEMBERSHIP_SCOPES, default: 'full' })
  @UnlessAbsent()
  @IsIn(MEMBERSHIP_SCOPES, { message: SCOPE_MESSAGE })
  scope?: MembershipScope;
}

export class UpdateMembershipDto {
  @ApiPropertyOptional({ enum: MEMBERSHIP_ROLES })
  @UnlessAbsent()
  @IsIn(MEMBERSHIP_ROLES, { message: ROLE_MESSAGE })
  role?: MembershipRole;

  @ApiPropertyOptional({ enum: MEMBERSHIP_SCOPES })
  @UnlessAbsent()
  @IsIn(MEMBERSHIP_SCOPES, { message: SCOPE_MESSAGE })
  scope?: MembershipScope;
}
