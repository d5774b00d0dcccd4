import { Body, Controller, Get, Param, Patch, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiGuarded, ApiNotFound, ApiTenantHeader, ApiValidationFailed } from '../../api-docs';
import { RequirePermission, RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES, ROLES } from '../../identity/rbac';
import { PermissionViewDto, RoleViewDto } from './role-view.dto';
import { UpdateRoleDto } from './roles.dto';
import { RolesService } from './roles.service';

const G1 = 'Gate G1 (`role:admin|super-admin`) in the active tenant.';

/** /api/admin/roles and /api/admin/permissions. */
@ApiTags('Admin: roles')
@ApiTenantHeader()
@ApiGuarded()
@Controller('api/admin')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get('roles')
  @ApiOperation({ summary: 'The seeded roles, most powerful first, with their permissions and holder counts in the active tenant', description: G1 })
  @ApiData(RoleViewDto, { isArray: true, description: 'The roles' })
  @RequireRole(...G1_ROLES)
  async list(@Req() req: KbRequest) {
    return { data: await this.roles.list(req.kbPrincipal!.tenantId) };
  }

  /**
   * G1, and reshaping grants is what roles.manage is for (seeded to super-admin only). The change
   * holds in the active tenant only.
   */
  @Patch('roles/:role')
  @ApiOperation({
    summary: "Replaces a role's permission set",
    description:
      `${G1} Also needs roles.manage (seeded to super-admin). The new set holds in the active tenant only; other tenants keep theirs. ` +
      'The super-admin role always holds every permission (422). A platform-level permission (platform.admin, tenant.cross-access) is refused with 422 naming it.',
  })
  @ApiParam({ name: 'role', enum: ROLES })
  @ApiData(RoleViewDto, { description: 'The role' })
  @ApiNotFound('role')
  @ApiValidationFailed()
  @RequireRole(...G1_ROLES)
  @RequirePermission('roles.manage')
  async update(@Param('role') role: string, @Body() body: UpdateRoleDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return { data: await this.roles.update(p.tenantId, role, body.permissions, p.userId) };
  }

  @Get('permissions')
  @ApiOperation({ summary: 'The tenant-grantable permissions and the roles holding each', description: `${G1} Each permission with the roles that carry it in the active tenant.` })
  @ApiData(PermissionViewDto, { isArray: true, description: 'The permissions' })
  @RequireRole(...G1_ROLES)
  async permissions(@Req() req: KbRequest) {
    return { data: await this.roles.permissions(req.kbPrincipal!.tenantId) };
  }
}
