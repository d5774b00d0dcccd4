import { Injectable } from '@nestjs/common';
import { TokenIdentityCache } from '../../auth/token-identity-cache';
import { KbError, KbValidationError } from '../../errors/kb-errors';
import { isRole, Permission, ROLE_RANK } from '../../identity/rbac';
import { RoleRow, RolesRepository } from './roles.repository';

const roleView = (r: RoleRow) => ({
  name: r.name,
  rank: ROLE_RANK[r.name],
  description: r.description,
  permissions: r.permissions,
  users_count: Number(r.users_count),
});

/** The seeded roles with their grants in a tenant; each tenant may reshape every role but super-admin. */
@Injectable()
export class RolesService {
  constructor(
    private readonly roles: RolesRepository,
    private readonly identities: TokenIdentityCache,
  ) {}

  async list(tenantId: string) {
    const rows = await this.roles.list(tenantId);
    return rows
      .filter((r) => isRole(r.name))
      .map(roleView)
      .sort((a, b) => b.rank - a.rank);
  }

  async permissions(tenantId: string) {
    return this.roles.permissions(tenantId);
  }

  async update(tenantId: string, role: string, permissions: Permission[], actorId: string | null) {
    if (!isRole(role)) throw new KbError(404, 'not_found', 'Role not found.');
    // super-admin is defined as holding everything; trimming it could lock the tenant out of roles.manage.
    if (role === 'super-admin')
      throw new KbValidationError({
        permissions: ['The super-admin role always holds every permission.'],
      });
    await this.roles.setPermissions(tenantId, role, permissions, actorId);
    // Cached authorizations of the role's holders in this tenant are stale now.
    await this.identities.invalidateEveryone();
    return (await this.list(tenantId)).find((r) => r.name === role)!;
  }
}
