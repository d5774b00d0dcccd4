import { Body, Controller, Get, Param, Patch, Req } from '@nestjs/common';
import { RequirePermission, RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { UpdateRoleDto } from './roles.dto';
import { RolesService } from './roles.service';

/** /api/admin/roles and /api/admin/permissions. */
@Controller('api/admin')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get('roles')
  @RequireRole(...G1_ROLES)
  async list(@Req() req: KbRequest) {
    return { data: await this.roles.list(req.kbPrincipal!.tenantId) };
  }

  /**
   * G1, and reshaping grants is what roles.manage is for (seeded to super-admin only). The change
   * holds in the active tenant only.
   */
  @Patch('roles/:role')
  @RequireRole(...G1_ROLES)
  @RequirePermission('roles.manage')
  async update(@Param('role') role: string, @Body() body: UpdateRoleDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return { data: await this.roles.update(p.tenantId, role, body.permissions, p.userId) };
  }

  @Get('permissions')
  @RequireRole(...G1_ROLES)
  async permissions(@Req() req: KbRequest) {
    return { data: await this.roles.permissions(req.kbPrincipal!.tenantId) };
  }
}
