import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiNotFound, ApiPage, ApiValidationFailed, ErrorBody } from '../api-docs';
import { UserViewDto } from '../admin/users/user-view.dto';
import { Can, GlobalRoute } from '../auth/gates';
import { ApiPlatformOnly } from './api-platform-only';
import { CreatedTenantDto, TENANT_ID_PATTERN, TenantViewDto } from './tenant-views.dto';
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

const GLOBAL = 'Global; needs platform.admin.';
const ApiTenantParam = () => ApiParam({ name: 'tenant', schema: { type: 'string', pattern: TENANT_ID_PATTERN } });

/**
 * /api/system-admin/tenants: global (no active tenant is resolved, X-Tenant-Id is ignored) and
 * gated by platform.admin, which a tenant super-admin does not hold.
 */
@ApiTags('System admin')
@ApiPlatformOnly()
@Controller('api/system-admin/tenants')
@GlobalRoute()
@Can('platform.admin')
export class TenantsAdminController {
  constructor(
    private readonly tenants: TenantsAdminRepository,
    private readonly onboarding: TenantOnboardingService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Every tenant, by id', description: 'Global (X-Tenant-Id is not read); needs platform.admin. `search` matches the id or name.' })
  @ApiPage(TenantViewDto, 'A page of tenants')
  @ApiValidationFailed()
  async list(@Query() q: ListTenantsQueryDto): Promise<Page<TenantView>> {
    const w = pageWindow(q);
    const { rows, total } = await this.tenants.list({ search: q.search, status: q.status }, w);
    return toPage(rows.map(tenantView), total, w);
  }

  /** With `admin`, the tenant's first admin is created in the same transaction and answered as `admin`. */
  @Post()
  @ApiOperation({
    summary: 'Creates a tenant with its `default` project (and, with `admin`, its first admin)',
    description:
      'Global; needs platform.admin. 422 `errors.id` when the id is malformed or taken. With `admin`, the account is created in the same transaction ' +
      '(see `POST /api/system-admin/tenants/{tenant}/admins`) and answered as `admin`; a taken email (422 `errors["admin.email"]`) creates nothing.',
  })
  @ApiCreatedResponse({ description: 'Created', type: CreatedTenantDto })
  @ApiValidationFailed()
  @HttpCode(201)
  async create(@Body() body: CreateTenantDto) {
    const created = await this.onboarding.createTenant(body.id, body.name, body.admin);
    if (!created) throw new KbValidationError({ id: ['The id has already been taken.'] });
    return created.admin ? { data: tenantView(created.tenant), admin: created.admin } : { data: tenantView(created.tenant) };
  }

  /** Adds an admin account homed in the tenant (super-admin unless `role: admin`). */
  @Post(':tenant/admins')
  @ApiOperation({
    summary: "Adds an admin account homed in the tenant (onboarding: the tenant's first admin, or another)",
    description:
      'Global; needs platform.admin. The account gets the role (super-admin unless `role: admin`) in the tenant and owns its `default` project; ' +
      'it signs in with `POST /api/auth/login` or `POST /api/auth/token` like any user. Nothing platform-wide is granted. ' +
      '404 for an unknown tenant; 422 `errors.email` when the email belongs to an account already.',
  })
  @ApiTenantParam()
  @ApiData(UserViewDto, { status: 201, description: 'The new account' })
  @ApiResponse({ status: 404, description: 'Unknown tenant `{error: "not_found", message}`', type: ErrorBody })
  @ApiValidationFailed()
  @HttpCode(201)
  async addAdmin(@Param('tenant') id: string, @Body() body: TenantAdminDto) {
    return { data: await this.onboarding.addAdmin(id, body) };
  }

  @Get(':tenant')
  @ApiOperation({ summary: 'One tenant', description: GLOBAL })
  @ApiTenantParam()
  @ApiData(TenantViewDto, { description: 'The tenant' })
  @ApiNotFound('tenant')
  async show(@Param('tenant') id: string) {
    const row = await this.tenants.find(id);
    if (!row) throw tenantNotFound();
    return { data: tenantView(row) };
  }

  /** Every request in a suspended tenant answers 403 tenant_suspended until it is resumed. */
  @Post(':tenant/suspend')
  @ApiOperation({ summary: 'Suspends a tenant: its requests answer 403 tenant_suspended', description: GLOBAL })
  @ApiTenantParam()
  @ApiData(TenantViewDto, { description: 'The tenant' })
  @ApiNotFound('tenant')
  @HttpCode(200)
  suspend(@Param('tenant') id: string) {
    return this.setStatus(id, 'suspended');
  }

  @Post(':tenant/resume')
  @ApiOperation({ summary: 'Resumes a suspended tenant', description: GLOBAL })
  @ApiTenantParam()
  @ApiData(TenantViewDto, { description: 'The tenant' })
  @ApiNotFound('tenant')
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
