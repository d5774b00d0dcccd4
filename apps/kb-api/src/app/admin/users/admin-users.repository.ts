import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource, EntityManager } from 'typeorm';
import { emailKey } from '../../identity/users.repository';
import { PLATFORM_ADMIN, Role } from '../../identity/rbac';
import { containsPattern, isRowId, PageWindow } from '../pagination';

/** A user as the admin surface shows it: the account plus its roles in the active tenant. */
export interface AdminUserRow {
  id: string;
  tenant_id: string;
  name: string;
  email: string;
  active: boolean;
  email_verified_at: Date | null;
  two_factor_enabled: boolean;
  roles: Role[];
  /** Holds the global platform.admin permission. */
  platform_admin: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface UserFilter {
  search?: string;
  active?: boolean;
  role?: Role;
}

export interface UserChanges {
  name?: string;
  email?: string;
  active?: boolean;
}

const COLUMNS = `u.id, u.tenant_id, u.name, u.email, u.active, u.email_verified_at,
  u.two_factor_confirmed_at IS NOT NULL AS two_factor_enabled, u.created_at, u.updated_at,
  coalesce((SELECT array_agg(r.role ORDER BY r.role) FROM kb_user_roles r WHERE r.user_id = u.id AND r.tenant_id = u.tenant_id), '{}') AS roles,
  EXISTS (SELECT 1 FROM kb_user_permissions p WHERE p.user_id = u.id AND p.tenant_id IS NULL AND p.permission = '${PLATFORM_ADMIN}') AS platform_admin`;
const FILTER = `u.tenant_id = $1
  AND ($2::text IS NULL OR u.name ILIKE $2 OR u.email ILIKE $2)
  AND ($3::boolean IS NULL OR u.active = $3)
  AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM kb_user_roles r WHERE r.user_id = u.id AND r.tenant_id = u.tenant_id AND r.role = $4))`;

/** The unique index on the global identity key refused a second account for one email. */
export const isDuplicateEmail = (e: unknown) =>
  typeof e === 'object' &&
  e !== null &&
  (e as { code?: string }).code === '23505' &&
  /email_key/.test(String((e as { constraint?: string }).constraint ?? (e as Error).message));

/**
 * Accounts of one tenant for the admin surface. A tenant's users are the accounts whose home tenant
 * it is; every statement takes the tenant, so another tenant's id finds nothing.
 */
@Injectable()
export class AdminUsersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(
    tenantId: string,
    filter: UserFilter,
    w: PageWindow,
  ): Promise<{ rows: AdminUserRow[]; total: number }> {
    const params = [
      tenantId,
      containsPattern(filter.search),
      filter.active ?? null,
      filter.role ?? null,
    ];
    const [rows, [count]] = await Promise.all([
      queryRows<AdminUserRow>(
        this.db,
        `SELECT ${COLUMNS} FROM kb_users u WHERE ${FILTER} ORDER BY u.id LIMIT $5 OFFSET $6`,
        [...params, w.perPage, w.offset],
      ),
      queryRows<{ total: string }>(
        this.db,
        `SELECT count(*) AS total FROM kb_users u WHERE ${FILTER}`,
        params,
      ),
    ]);
    return { rows, total: Number(count.total) };
  }

  async find(
    tenantId: string,
    id: string,
    db: DataSource | EntityManager = this.db,
  ): Promise<AdminUserRow | null> {
    if (!isRowId(id)) return null;
    const [row] = await queryRows<AdminUserRow>(
      db,
      `SELECT ${COLUMNS} FROM kb_users u WHERE u.id = $1 AND u.tenant_id = $2`,
      [id, tenantId],
    );
    return row ?? null;
  }

  /** In a transaction of its own, or in the caller's `within` (tenant onboarding creates both at once). */
  async create(
    tenantId: string,
    user: { name: string; email: string; passwordHash: string; active: boolean },
    roles: readonly Role[],
    within?: EntityManager,
  ): Promise<AdminUserRow> {
    const run = async (tx: EntityManager) => {
      const [row] = await queryRows<{ id: string }>(
        tx,
        `INSERT INTO kb_users (tenant_id, name, email, email_key, password_hash, active) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [tenantId, user.name, user.email, emailKey(user.email), user.passwordHash, user.active],
      );
      await this.replaceRoles(tx, tenantId, row.id, roles);
      return (await this.find(tenantId, row.id, tx))!;
    };
    return within ? run(within) : this.db.transaction(run);
  }

  /** Applies the changes (and the role set, when given) in one transaction; null when the user is not the tenant's. */
  async update(
    tenantId: string,
    id: string,
    changes: UserChanges,
    roles?: readonly Role[],
  ): Promise<AdminUserRow | null> {
    if (!isRowId(id)) return null;
    return this.db.transaction(async (tx) => {
      const [row] = await queryRows<{ id: string }>(
        tx,
        `UPDATE kb_users SET name = coalesce($3, name), email = coalesce($4, email), email_key = coalesce($5, email_key),
                active = coalesce($6, active), updated_at = now()
          WHERE id = $1 AND tenant_id = $2 RETURNING id`,
        [
          id,
          tenantId,
          changes.name ?? null,
          changes.email ?? null,
          changes.email === undefined ? null : emailKey(changes.email),
          changes.active ?? null,
        ],
      );
      if (!row) return null;
      if (roles) await this.replaceRoles(tx, tenantId, id, roles);
      return this.find(tenantId, id, tx);
    });
  }

  private async replaceRoles(
    tx: EntityManager,
    tenantId: string,
    userId: string,
    roles: readonly Role[],
  ): Promise<void> {
    await tx.query(
      'DELETE FROM kb_user_roles WHERE tenant_id = $1 AND user_id = $2 AND NOT (role = ANY($3::text[]))',
      [tenantId, userId, roles],
    );
    await tx.query(
      'INSERT INTO kb_user_roles (tenant_id, user_id, role) SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING',
      [tenantId, userId, roles],
    );
  }
}
