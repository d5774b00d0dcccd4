import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { containsPattern, isRowId, PageWindow } from '../pagination';

export const MEMBERSHIP_ROLES = ['owner', 'member', 'viewer'] as const;
export const MEMBERSHIP_SCOPES = ['full', 'read'] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];
export type MembershipScope = (typeof MEMBERSHIP_SCOPES)[number];

export interface MembershipRow {
  id: string;
  tenant_id: string;
  user_id: string;
  project_key: string;
  role: MembershipRole;
  scope: MembershipScope;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, tenant_id, user_id, project_key, role, scope, created_at, updated_at';

export type CreateOutcome = { row: MembershipRow } | { problem: 'unknown_project' | 'duplicate' };

/** Project memberships of one tenant; every statement takes the tenant. */
@Injectable()
export class MembershipsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async listOfUser(
    tenantId: string,
    userId: string,
    search: string | undefined,
    w: PageWindow,
  ): Promise<{ rows: MembershipRow[]; total: number }> {
    const where = 'tenant_id = $1 AND user_id = $2 AND ($3::text IS NULL OR project_key ILIKE $3)';
    const params = [tenantId, userId, containsPattern(search)];
    const [rows, [count]] = await Promise.all([
      queryRows<MembershipRow>(
        this.db,
        `SELECT ${COLUMNS} FROM kb_memberships WHERE ${where} ORDER BY project_key, id LIMIT $4 OFFSET $5`,
        [...params, w.perPage, w.offset],
      ),
      queryRows<{ total: string }>(
        this.db,
        `SELECT count(*) AS total FROM kb_memberships WHERE ${where}`,
        params,
      ),
    ]);
    return { rows, total: Number(count.total) };
  }

  async find(tenantId: string, id: string): Promise<MembershipRow | null> {
    if (!isRowId(id)) return null;
    const [row] = await queryRows<MembershipRow>(
      this.db,
      `SELECT ${COLUMNS} FROM kb_memberships WHERE id = $1 AND tenant_id = $2`,
      [id, tenantId],
    );
    return row ?? null;
  }

  /** Adds the membership when the project exists in the tenant and the user is not a member yet. */
  async create(
    tenantId: string,
    userId: string,
    m: { project_key: string; role: MembershipRole; scope: MembershipScope },
  ): Promise<CreateOutcome> {
    const [row] = await queryRows<MembershipRow>(
      this.db,
      `INSERT INTO kb_memberships (tenant_id, user_id, project_key, role, scope)
       SELECT $1, $2, p.project_key, $4, $5 FROM kb_projects p WHERE p.tenant_id = $1 AND p.project_key = $3
       ON CONFLICT (tenant_id, user_id, project_key) DO NOTHING
       RETURNING ${COLUMNS}`,
      [tenantId, userId, m.project_key, m.role, m.scope],
    );
    if (row) return { row };
    const [project] = await this.db.query(
      'SELECT 1 FROM kb_projects WHERE tenant_id = $1 AND project_key = $2',
      [tenantId, m.project_key],
    );
    return { problem: project ? 'duplicate' : 'unknown_project' };
  }

  async update(
    tenantId: string,
    id: string,
    changes: { role?: MembershipRole; scope?: MembershipScope },
  ): Promise<MembershipRow | null> {
    if (!isRowId(id)) return null;
    const [row] = await queryRows<MembershipRow>(
      this.db,
      `UPDATE kb_memberships SET role = coalesce($3, role), scope = coalesce($4, scope), updated_at = now()
        WHERE id = $1 AND tenant_id = $2 RETURNING ${COLUMNS}`,
      [id, tenantId, changes.role ?? null, changes.scope ?? null],
    );
    return row ?? null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    if (!isRowId(id)) return false;
    const rows = await queryRows(
      this.db,
      'DELETE FROM kb_memberships WHERE id = $1 AND tenant_id = $2 RETURNING id',
      [id, tenantId],
    );
    return rows.length === 1;
  }
}
