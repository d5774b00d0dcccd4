import { Controller, Get, Query } from '@nestjs/common';
import { Can, GlobalRoute } from '../auth/gates';
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
@Controller('api/system-admin/cross-tenant-audit')
@GlobalRoute()
@Can('platform.admin')
export class CrossTenantAuditController {
  constructor(private readonly audit: CrossTenantAuditRepository) {}

  @Get()
  async list(@Query() q: CrossTenantAuditQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.audit.list({ actorUserId: q.actor_user_id, targetTenantId: q.tenant_id }, w);
    return toPage(rows.map(entryView), total, w);
  }
}
