import { ApiProperty } from '@nestjs/swagger';
import { ArrayUnique, IsArray, ValidateBy } from 'class-validator';
import { isPlatformPermission, Permission, PERMISSIONS } from '../../identity/rbac';

const isTenantPermission = (v: unknown) =>
  typeof v === 'string' && (PERMISSIONS as readonly string[]).includes(v);

/**
 * Each item is a tenant permission. A platform-level one is named in the refusal: a tenant's role
 * editing must never be a way into other tenants, and the admin should see why the change failed.
 */
const TenantPermissions = () =>
  ValidateBy({
    name: 'tenantPermissions',
    validator: {
      validate: (value: unknown) => !Array.isArray(value) || value.every(isTenantPermission),
      defaultMessage: (args) => {
        const items = Array.isArray(args?.value) ? (args.value as unknown[]) : [];
        const platform = items.find(isPlatformPermission);
        return platform !== undefined
          ? `${platform as string} is a platform permission; a tenant role cannot carry it.`
          : 'The selected permissions are invalid.';
      },
    },
  });

export class UpdateRoleDto {
  @ApiProperty({ enum: PERMISSIONS, isArray: true, uniqueItems: true, description: 'The new permission set (replaces the old one)' })
  @IsArray({ message: 'The permissions field must be an array.' })
  @ArrayUnique({ message: 'The permissions field has a duplicate value.' })
  @TenantPermissions()
  permissions!: Permission[];
}
