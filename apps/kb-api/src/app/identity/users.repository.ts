import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { PLATFORM_ADMIN, Role } from './rbac';

export interface UserRow {
  id: string;
  tenant_id: string;
  name: string;
  email: string;
  email_key: string;
  password_hash: string;
  active: boolean;
  email_verified_at: Date | null;
  two_factor_secret: string | null;
  two_factor_confirmed_at: Date | null;
  two_factor_recovery_codes: string[];
  preferences: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** The global identity key of an email: trimmed and lower-cased, unique case-insensitively. */
export const emailKey = (email: string) => email.trim().toLowerCase();

export interface Authorization {
  roles: Role[];
  permissions: string[];
  platformAdmin: boolean;
  /** Tenants the user may enter besides the home one (a role or a project membership there). */
  tenants: string[];
}

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async findByEmail(email: string): Promise<UserRow | null> {
    const [row] = await this.db.query('SELECT * FROM kb_users WHERE email_key = $1', [emailKey(email)]);
    return row ?? null;
  }

  async findById(id: string): Promise<UserRow | null> {
    if (!/^[1-9][0-9]{0,17}$/.test(id)) return null;
    const [row] = await this.db.query('SELECT * FROM kb_users WHERE id = $1', [id]);
    return row ?? null;
  }

  /** Roles and permissions in one tenant, global platform.admin, and the tenants the user may enter. */
  async authorization(userId: string, tenantId: string): Promise<Authorization> {
    const [row] = await this.db.query(
      `SELECT
         coalesce((SELECT array_agg(role ORDER BY role) FROM kb_user_roles WHERE user_id = $1 AND tenant_id = $2), '{}') AS roles,
         coalesce((SELECT array_agg(DISTINCT p) FROM (
             SELECT rp.permission AS p FROM kb_user_roles ur JOIN kb_effective_role_permissions rp ON rp.role = ur.role AND rp.tenant_id = ur.tenant_id WHERE ur.user_id = $1 AND ur.tenant_id = $2
             UNION SELECT permission FROM kb_user_permissions WHERE user_id = $1 AND (tenant_id = $2 OR tenant_id IS NULL)) x), '{}') AS permissions,
         EXISTS (SELECT 1 FROM kb_user_permissions WHERE user_id = $1 AND tenant_id IS NULL AND permission = $3) AS platform_admin,
         coalesce((SELECT array_agg(DISTINCT t) FROM (
             SELECT tenant_id AS t FROM kb_user_roles WHERE user_id = $1 UNION SELECT tenant_id FROM kb_memberships WHERE user_id = $1) y), '{}') AS tenants`,
      [userId, tenantId, PLATFORM_ADMIN],
    );
    return { roles: row.roles, permissions: (row.permissions as string[]).sort(), platformAdmin: row.platform_admin, tenants: row.tenants };
  }

  async memberships(userId: string, tenantId: string): Promise<Array<{ project_key: string; role: string; scope: string }>> {
    return this.db.query('SELECT project_key, role, scope FROM kb_memberships WHERE user_id = $1 AND tenant_id = $2 ORDER BY project_key', [userId, tenantId]);
  }

  /**
   * The tenants a user belongs to (home tenant, any role or project membership), each with the
   * user's projects there: the `teams` of /api/auth/me.
   */
  async teams(userId: string, homeTenantId: string): Promise<Array<{ tenant_id: string; name: string; projects: string[] }>> {
    return queryRows(
      this.db,
      `SELECT t.id AS tenant_id, t.name, coalesce(array_agg(m.project_key ORDER BY m.project_key) FILTER (WHERE m.project_key IS NOT NULL), '{}') AS projects
         FROM kb_tenants t LEFT JOIN kb_memberships m ON m.tenant_id = t.id AND m.user_id = $1
        WHERE t.id = $2 OR t.id IN (SELECT tenant_id FROM kb_user_roles WHERE user_id = $1) OR m.user_id IS NOT NULL
        GROUP BY t.id, t.name ORDER BY t.id`,
      [userId, homeTenantId],
    );
  }

  async updatePassword(userId: string, passwordHash: string): Promise<void> {
    await this.db.query('UPDATE kb_users SET password_hash = $2, updated_at = now() WHERE id = $1', [userId, passwordHash]);
  }

  async setTwoFactor(userId: string, fields: { secret: string | null; confirmedAt: Date | null; recoveryCodes: string[] }): Promise<void> {
    await this.db.query(
      'UPDATE kb_users SET two_factor_secret = $2, two_factor_confirmed_at = $3, two_factor_recovery_codes = $4, updated_at = now() WHERE id = $1',
      [userId, fields.secret, fields.confirmedAt, JSON.stringify(fields.recoveryCodes)],
    );
  }

  /** Consumes one recovery code atomically (a code works once, even under concurrent logins). */
  async consumeRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const rows = await queryRows(
      this.db,
      `UPDATE kb_users SET two_factor_recovery_codes = two_factor_recovery_codes - $2::text, updated_at = now()
        WHERE id = $1 AND two_factor_recovery_codes ? $2::text RETURNING id`,
      [userId, codeHash],
    );
    return rows.length === 1;
  }
}
