import { ApiProperty } from '@nestjs/swagger';
import { DATE_TIME, nullable, ROW_ID } from '../../api-docs/schema';
import { ROLES } from '../../identity/rbac';

/** An account as the admin surfaces show it, with its roles in the active tenant. */
export class UserViewDto {
  @ApiProperty(ROW_ID)
  id!: number;

  @ApiProperty({ description: 'Home tenant' })
  tenant_id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  email!: string;

  @ApiProperty()
  active!: boolean;

  @ApiProperty({ enum: ROLES, isArray: true, description: 'Roles in the active tenant' })
  roles!: string[];

  @ApiProperty(nullable(DATE_TIME))
  email_verified_at!: string | null;

  @ApiProperty()
  two_factor_enabled!: boolean;

  @ApiProperty(DATE_TIME)
  created_at!: string;

  @ApiProperty(DATE_TIME)
  updated_at!: string;
}
