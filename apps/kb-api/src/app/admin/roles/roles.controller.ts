import { Body, Controller, Get, Param, Patch, Req } from '@nestjs/common';
import { Can, RequirePermission, RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { KbMessage } from '../../errors/kb-errors';
import { G1_ROLES } from '../../identity/rbac';
import { UpdateRoleDto } from './roles.dto';
import { RolesService } from './roles.service';

/** /api/admin/roles and /api/admin/permissions. */
@Controller('api/admin')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get('roles')
  @RequireRole('admin', 'super-admin')
  async list(@Req() req: KbRequest) {
    return { data: await this.roles.list(req.kbPrincipal!.tenantId) };
  }

  /**
   * A role's grants hold in every tenant (one shared grant table), so besides roles.manage in the
   * active tenant the change needs platform.admin: a tenant's super-admin must not reshape another
   * tenant's permissions.
   */
  @Patch('roles/:role')
  @RequireRole('admin', 'super-admin')
  @RequirePermission('roles.manage')
  @Can('platform.admin')
  async update(@Param('role') role: string, @Body() body: UpdateRoleDto, @Req() req: KbRequest) {
    return { data: await this.roles.update(req.kbPrincipal!.tenantId, role, body.permissions) };
  }

  /** G1, or the permissions.view permission on its own (e.g. a dpo granted it directly). */
  @Get('permissions')
  async permissions(@Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    if (!p.roles.some((r) => G1_ROLES.includes(r)) && !p.permissions.includes('permissions.view'))
      throw new KbMessage(403, 'This action is unauthorized.');
    return { data: await this.roles.permissions() };
  }
}
