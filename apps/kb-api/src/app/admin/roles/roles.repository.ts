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

/** Roles and their grants (shared by every tenant), with per-tenant holder counts. */
@Injectable()
export class RolesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(tenantId: string): Promise<RoleRow[]> {
    return queryRows<RoleRow>(
      this.db,
      `SELECT r.name, r.description,
              coalesce((SELECT array_agg(rp.permission ORDER BY rp.permission) FROM kb_role_permissions rp WHERE rp.role = r.name), '{}') AS permissions,
              (SELECT count(*) FROM kb_user_roles ur WHERE ur.role = r.name AND ur.tenant_id = $1) AS users_count
         FROM kb_roles r`,
      [tenantId],
    );
  }

  /** The tenant-grantable permissions (platform.admin is global and held directly, never through a role). */
  async permissions(): Promise<PermissionRow[]> {
    return queryRows<PermissionRow>(
      this.db,
      `SELECT p.name, p.description,
              coalesce((SELECT array_agg(rp.role ORDER BY rp.role) FROM kb_role_permissions rp WHERE rp.permission = p.name), '{}') AS roles
         FROM kb_permissions p WHERE p.name = ANY($1::text[]) ORDER BY p.name`,
      [PERMISSIONS],
    );
  }

  async setPermissions(role: Role, permissions: readonly Permission[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        'DELETE FROM kb_role_permissions WHERE role = $1 AND NOT (permission = ANY($2::text[]))',
        [role, permissions],
      );
      await tx.query(
        'INSERT INTO kb_role_permissions (role, permission) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
        [role, permissions],
      );
    });
  }
}
