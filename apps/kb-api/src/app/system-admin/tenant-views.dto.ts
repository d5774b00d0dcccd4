import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DATE_TIME, nullable, ROW_ID } from '../api-docs/schema';
import { UserViewDto } from '../admin/users/user-view.dto';
import { TENANT_STATUSES } from './tenants-admin.dto';

export const TENANT_ID_PATTERN = '^[a-z0-9_-]{1,50}$';

/** A tenant as the system admin sees it. */
export class TenantViewDto {
  @ApiProperty({ pattern: TENANT_ID_PATTERN })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: TENANT_STATUSES })
  status!: string;

  @ApiProperty({ type: 'integer', minimum: 0 })
  users_count!: number;

  @ApiProperty(DATE_TIME)
  created_at!: string;

  @ApiProperty(DATE_TIME)
  updated_at!: string;
}

/** The answer of tenant creation: the tenant, and its first admin when one was asked for. */
export class CreatedTenantDto {
  @ApiProperty({ type: TenantViewDto })
  data!: TenantViewDto;

  @ApiPropertyOptional({ type: UserViewDto, description: 'The first admin, when the body had `admin`' })
  admin?: UserViewDto;
}

/** One request a platform admin made in a tenant other than their home tenant. */
export class CrossTenantAuditEntryDto {
  @ApiProperty(ROW_ID)
  id!: number;

  @ApiProperty(ROW_ID)
  actor_user_id!: number;

  @ApiProperty()
  actor_email!: string;

  @ApiProperty({ enum: ['session', 'token'] })
  credential!: string;

  @ApiProperty({ pattern: TENANT_ID_PATTERN })
  home_tenant_id!: string;

  @ApiProperty({ pattern: TENANT_ID_PATTERN })
  target_tenant_id!: string;

  @ApiProperty()
  method!: string;

  @ApiProperty({ description: 'The matched route pattern, e.g. `/api/kb/documents/:documentId/preview`' })
  route!: string;

  @ApiProperty({ description: 'The concrete path, without the query string' })
  path!: string;

  @ApiProperty(nullable({ type: 'string' }))
  request_id!: string | null;

  @ApiProperty(DATE_TIME)
  created_at!: string;
}
