import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Can, GlobalRoute } from '../auth/gates';
import { KbValidationError } from '../errors/kb-errors';
import { Page, pageWindow, toPage } from '../admin/pagination';
import { TenantOnboardingService, tenantNotFound } from './tenant-onboarding.service';
import { CreateTenantDto, ListTenantsQueryDto, TenantAdminDto } from './tenants-admin.dto';
import { TenantAdminRow, TenantsAdminRepository, TenantStatus } from './tenants-admin.repository';

const tenantView = (t: TenantAdminRow) => ({
  id: t.id,
  name: t.name,
  status: t.status,
  users_count: Number(t.users_count),
  created_at: t.created_at.toISOString(),
  updated_at: t.updated_at.toISOString(),
});
type TenantView = ReturnType<typeof tenantView>;

/**
 * /api/system-admin/tenants: global (no active tenant is resolved, X-Tenant-Id is ignored) and
 * gated by platform.admin, which a tenant super-admin does not hold.
 */
@Controller('api/system-admin/tenants')
@GlobalRoute()
@Can('platform.admin')
export class TenantsAdminController {
  constructor(
    private readonly tenants: TenantsAdminRepository,
    private readonly onboarding: TenantOnboardingService,
  ) {}

  @Get()
  async list(@Query() q: ListTenantsQueryDto): Promise<Page<TenantView>> {
    const w = pageWindow(q);
    const { rows, total } = await this.tenants.list({ search: q.search, status: q.status }, w);
    return toPage(rows.map(tenantView), total, w);
  }

  /** With `admin`, the tenant's first admin is created in the same transaction and answered as `admin`. */
  @Post()
  @HttpCode(201)
  async create(@Body() body: CreateTenantDto) {
    const created = await this.onboarding.createTenant(body.id, body.name, body.admin);
    if (!created) throw new KbValidationError({ id: ['The id has already been taken.'] });
    return created.admin ? { data: tenantView(created.tenant), admin: created.admin } : { data: tenantView(created.tenant) };
  }

  /** Adds an admin account homed in the tenant (super-admin unless `role: admin`). */
  @Post(':tenant/admins')
  @HttpCode(201)
  async addAdmin(@Param('tenant') id: string, @Body() body: TenantAdminDto) {
    return { data: await this.onboarding.addAdmin(id, body) };
  }

  @Get(':tenant')
  async show(@Param('tenant') id: string) {
    const row = await this.tenants.find(id);
    if (!row) throw tenantNotFound();
    return { data: tenantView(row) };
  }

  /** Every request in a suspended tenant answers 403 tenant_suspended until it is resumed. */
  @Post(':tenant/suspend')
  @HttpCode(200)
  suspend(@Param('tenant') id: string) {
    return this.setStatus(id, 'suspended');
  }

  @Post(':tenant/resume')
  @HttpCode(200)
  resume(@Param('tenant') id: string) {
    return this.setStatus(id, 'active');
  }

  private async setStatus(id: string, status: TenantStatus) {
    const row = await this.tenants.setStatus(id, status);
    if (!row) throw tenantNotFound();
    return { data: tenantView(row) };
  }
}
