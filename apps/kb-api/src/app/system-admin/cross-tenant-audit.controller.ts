import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPage, ApiValidationFailed } from '../api-docs';
import { Can, GlobalRoute } from '../auth/gates';
import { ApiPlatformOnly } from './api-platform-only';
import { CrossTenantAuditEntryDto } from './tenant-views.dto';
import { pageWindow, toPage } from '../admin/pagination';
import { CrossTenantAuditRepository, CrossTenantAuditRow } from '../tenancy/cross-tenant-audit.repository';
import { CrossTenantAuditQueryDto } from './tenants-admin.dto';

const entryView = (r: CrossTenantAuditRow) => ({
  id: Number(r.id),
  actor_user_id: Number(r.actor_user_id),
  actor_email: r.actor_email,
  credential: r.credential,
  home_tenant_id: r.home_tenant_id,
  target_tenant_id: r.target_tenant_id,
  method: r.method,
  route: r.route,
  path: r.path,
  request_id: r.request_id,
  created_at: r.created_at.toISOString(),
});

/** /api/system-admin/cross-tenant-audit: every request a platform admin made in a foreign tenant, newest first. */
@ApiTags('System admin')
@ApiPlatformOnly()
@Controller('api/system-admin/cross-tenant-audit')
@GlobalRoute()
@Can('platform.admin')
export class CrossTenantAuditController {
  constructor(private readonly audit: CrossTenantAuditRepository) {}

  @Get()
  @ApiOperation({
    summary: 'Every request a platform admin made in a tenant other than their home tenant, newest first',
    description:
      'Global; needs platform.admin. A row is written when the request is admitted into the foreign tenant, before the route runs (so refused and failed actions show too).',
  })
  @ApiPage(CrossTenantAuditEntryDto, 'A page of entries')
  @ApiValidationFailed()
  async list(@Query() q: CrossTenantAuditQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.audit.list({ actorUserId: q.actor_user_id, targetTenantId: q.tenant_id }, w);
    return toPage(rows.map(entryView), total, w);
  }
}
