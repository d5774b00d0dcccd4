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

/** The seeded roles with their grants; grants of every role but super-admin can be reshaped. */
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

  async permissions() {
    return this.roles.permissions();
  }

  async update(tenantId: string, role: string, permissions: Permission[]) {
    if (!isRole(role)) throw new KbError(404, 'not_found', 'Role not found.');
    // super-admin is defined as holding everything; trimming it could lock every tenant out of roles.manage.
    if (role === 'super-admin')
      throw new KbValidationError({
        permissions: ['The super-admin role always holds every permission.'],
      });
    await this.roles.setPermissions(role, permissions);
    // Any user holding the role in any tenant may be affected.
    await this.identities.invalidateEveryone();
    return (await this.list(tenantId)).find((r) => r.name === role)!;
  }
}
