import { ApiProperty } from '@nestjs/swagger';
import { PERMISSIONS, ROLES } from '../../identity/rbac';

/** A seeded role with its permission set and holder count in the active tenant. */
export class RoleViewDto {
  @ApiProperty({ enum: ROLES })
  name!: string;

  @ApiProperty({ type: 'integer', description: 'Higher is more powerful; nobody grants a role above their own' })
  rank!: number;

  @ApiProperty()
  description!: string;

  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  permissions!: string[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Holders in the active tenant' })
  users_count!: number;
}

/** A tenant-grantable permission and the roles carrying it in the active tenant. */
export class PermissionViewDto {
  @ApiProperty({ enum: PERMISSIONS })
  name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ enum: ROLES, isArray: true })
  roles!: string[];
}
