import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { UnlessAbsent } from '@platform/observability';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsNotEmpty, IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { PageParamsDto, PageQueryDto } from '../admin/pagination';
import { NewAccountEmail, NewAccountName, NewAccountPassword } from '../admin/users/admin-users.dto';
import { TENANT_ID } from '../tenancy/tenants.repository';
import type { TenantStatus } from './tenants-admin.repository';

export const TENANT_STATUSES: readonly TenantStatus[] = ['active', 'suspended'];
/** The roles a tenant's first admins may get: enough to run the tenant, and nothing platform-wide. */
export const TENANT_ADMIN_ROLES = ['super-admin', 'admin'] as const;
export type TenantAdminRole = (typeof TENANT_ADMIN_ROLES)[number];

export class ListTenantsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: TENANT_STATUSES })
  @IsOptional()
  @IsIn(TENANT_STATUSES, { message: 'The selected status is invalid (active or suspended).' })
  status?: TenantStatus;
}

/** A tenant's admin account, created by a platform admin (the account's home tenant is that tenant). */
export class TenantAdminDto {
  @NewAccountName()
  name!: string;

  @NewAccountEmail('Unique platform-wide (case-insensitive)')
  email!: string;

  @NewAccountPassword()
  password!: string;

  @ApiPropertyOptional({ enum: TENANT_ADMIN_ROLES, default: 'super-admin' })
  @UnlessAbsent()
  @IsIn(TENANT_ADMIN_ROLES, { message: 'The selected role is invalid (super-admin or admin).' })
  role?: TenantAdminRole;
}

export class CreateTenantDto {
  @ApiProperty({ pattern: TENANT_ID.source })
  @IsString({ message: 'The id field is required.' })
  @Matches(TENANT_ID, { message: 'The id must match ^[a-z0-9_-]{1,50}$.' })
  id!: string;

  @ApiProperty({ minLength: 1, maxLength: 255 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'The name field is required.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name!: string;

  /** Optional: the tenant's first admin, created in the same transaction as the tenant. */
  @ApiPropertyOptional({ type: () => TenantAdminDto, description: "The tenant's first admin, created in the same transaction" })
  @UnlessAbsent()
  @IsObject({ message: 'The admin field must be an object.' })
  @ValidateNested()
  @Type(() => TenantAdminDto)
  admin?: TenantAdminDto;
}

export class CrossTenantAuditQueryDto extends PageParamsDto {
  @ApiPropertyOptional({ pattern: '^[1-9][0-9]*$', description: 'Only requests of this platform admin' })
  @IsOptional()
  @Matches(/^[1-9][0-9]{0,17}$/, { message: 'The actor user id must be a positive integer.' })
  actor_user_id?: string;

  @ApiPropertyOptional({ pattern: TENANT_ID.source, description: 'The target tenant' })
  @IsOptional()
  @Matches(TENANT_ID, { message: 'The tenant id must match ^[a-z0-9_-]{1,50}$.' })
  tenant_id?: string;
}
