import { ApiProperty } from '@nestjs/swagger';
import { DATE_TIME, ROW_ID } from '../../api-docs/schema';
import { MEMBERSHIP_ROLES, MEMBERSHIP_SCOPES } from './memberships.repository';

/** A user's membership of a project of the active tenant. */
export class MembershipViewDto {
  @ApiProperty(ROW_ID)
  id!: number;

  @ApiProperty(ROW_ID)
  user_id!: number;

  @ApiProperty()
  tenant_id!: string;

  @ApiProperty()
  project_key!: string;

  @ApiProperty({ enum: MEMBERSHIP_ROLES })
  role!: string;

  @ApiProperty({ enum: MEMBERSHIP_SCOPES })
  scope!: string;

  @ApiProperty(DATE_TIME)
  created_at!: string;

  @ApiProperty(DATE_TIME)
  updated_at!: string;
}
