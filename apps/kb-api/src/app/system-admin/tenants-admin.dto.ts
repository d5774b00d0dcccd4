import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PageQueryDto } from '../admin/pagination';
import { TENANT_ID } from '../tenancy/tenants.repository';
import type { TenantStatus } from './tenants-admin.repository';

export const TENANT_STATUSES: readonly TenantStatus[] = ['active', 'suspended'];

export class ListTenantsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsIn(TENANT_STATUSES, { message: 'The selected status is invalid (active or suspended).' })
  status?: TenantStatus;
}

export class CreateTenantDto {
  @IsString({ message: 'The id field is required.' })
  @Matches(TENANT_ID, { message: 'The id must match ^[a-z0-9_-]{1,50}$.' })
  id!: string;

  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'The name field is required.' })
  @IsNotEmpty({ message: 'The name field is required.' })
  @MaxLength(255, { message: 'The name field must not be greater than 255 characters.' })
  name!: string;
}
