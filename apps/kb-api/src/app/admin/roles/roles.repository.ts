import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { Permission, PERMISSIONS, Role } from '../../identity/rbac';

export interface RoleRow {
  name: Role;
  description: string;
  permissions: Permission[];
  users_count: string;
}

export interface PermissionRow {
  name: Permission;
  description: string;
  roles: Role[];
}

/** Roles with their grants in one tenant (the seeded defaults unless the tenant reshaped them) and holder counts. */
@Injectable()
export class RolesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(tenantId: string): Promise<RoleRow[]> {
    return queryRows<RoleRow>(
      this.db,
      `SELECT r.name, r.description,
              coalesce((SELECT array_agg(rp.permission ORDER BY rp.permission) FROM kb_effective_role_permissions rp WHERE rp.role = r.name AND rp.tenant_id = $1), '{}') AS permissions,
              (SELECT count(*) FROM kb_user_roles ur WHERE ur.role = r.name AND ur.tenant_id = $1) AS users_count
         FROM kb_roles r`,
      [tenantId],
    );
  }

  /** The tenant-grantable permissions (platform.admin is global and held directly, never through a role). */
  async permissions(tenantId: string): Promise<PermissionRow[]> {
    return queryRows<PermissionRow>(
      this.db,
      `SELECT p.name, p.description,
              coalesce((SELECT array_agg(rp.role ORDER BY rp.role) FROM kb_effective_role_permissions rp WHERE rp.permission = p.name AND rp.tenant_id = $2), '{}') AS roles
         FROM kb_permissions p WHERE p.name = ANY($1::text[]) ORDER BY p.name`,
      [PERMISSIONS, tenantId],
    );
  }

  /** The tenant's own grants of a role, replacing the seeded defaults there and nowhere else. */
  async setPermissions(tenantId: string, role: Role, permissions: readonly Permission[], actorId: string | null): Promise<void> {
    await this.db.query(
      `INSERT INTO kb_tenant_role_grants (tenant_id, role, permissions, updated_by) VALUES ($1, $2, $3::text[], $4)
       ON CONFLICT (tenant_id, role) DO UPDATE SET permissions = EXCLUDED.permissions, updated_by = EXCLUDED.updated_by, updated_at = now()`,
      [tenantId, role, [...new Set(permissions)].sort(), actorId],
    );
  }
}
