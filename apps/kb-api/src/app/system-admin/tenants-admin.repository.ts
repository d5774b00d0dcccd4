import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource, EntityManager } from 'typeorm';
import { containsPattern, PageWindow } from '../admin/pagination';
import { TENANT_ID, TenantRow } from '../tenancy/tenants.repository';

export type TenantStatus = TenantRow['status'];
export interface TenantAdminRow extends TenantRow {
  users_count: string;
}

const COLUMNS = `t.id, t.name, t.status, t.created_at, t.updated_at, (SELECT count(*) FROM kb_users u WHERE u.tenant_id = t.id) AS users_count`;

/** Tenants across the platform (the system-admin surface is global, not tenant-scoped). */
@Injectable()
export class TenantsAdminRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(
    filter: { search?: string; status?: TenantStatus },
    w: PageWindow,
  ): Promise<{ rows: TenantAdminRow[]; total: number }> {
    const where =
      '($1::text IS NULL OR t.id ILIKE $1 OR t.name ILIKE $1) AND ($2::text IS NULL OR t.status = $2)';
    const params = [containsPattern(filter.search), filter.status ?? null];
    const [rows, [count]] = await Promise.all([
      queryRows<TenantAdminRow>(
        this.db,
        `SELECT ${COLUMNS} FROM kb_tenants t WHERE ${where} ORDER BY t.id LIMIT $3 OFFSET $4`,
        [...params, w.perPage, w.offset],
      ),
      queryRows<{ total: string }>(
        this.db,
        `SELECT count(*) AS total FROM kb_tenants t WHERE ${where}`,
        params,
      ),
    ]);
    return { rows, total: Number(count.total) };
  }

  async find(id: string, db: DataSource | EntityManager = this.db): Promise<TenantAdminRow | null> {
    if (!TENANT_ID.test(id)) return null;
    const [row] = await queryRows<TenantAdminRow>(
      db,
      `SELECT ${COLUMNS} FROM kb_tenants t WHERE t.id = $1`,
      [id],
    );
    return row ?? null;
  }

  /**
   * Creates the tenant with its `default` project (as the seeded tenant has), so memberships can be
   * granted at once; null when the id is taken.
   */
  async create(id: string, name: string, within?: EntityManager): Promise<TenantAdminRow | null> {
    const run = async (tx: EntityManager) => {
      const inserted = await queryRows(
        tx,
        'INSERT INTO kb_tenants (id, name) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
        [id, name],
      );
      if (inserted.length === 0) return null;
      await tx.query(
        `INSERT INTO kb_projects (tenant_id, project_key, name) VALUES ($1, 'default', 'Default')`,
        [id],
      );
      return this.find(id, tx);
    };
    return within ? run(within) : this.db.transaction(run);
  }

  /** A tenant admin owns the tenant's `default` project, as the seeded super-admin does. */
  async grantDefaultProject(tenantId: string, userId: string, within: EntityManager): Promise<void> {
    await within.query(
      `INSERT INTO kb_memberships (tenant_id, user_id, project_key, role) VALUES ($1, $2, 'default', 'owner') ON CONFLICT DO NOTHING`,
      [tenantId, userId],
    );
  }

  async setStatus(id: string, status: TenantStatus): Promise<TenantAdminRow | null> {
    if (!TENANT_ID.test(id)) return null;
    const updated = await queryRows(
      this.db,
      'UPDATE kb_tenants SET status = $2, updated_at = now() WHERE id = $1 RETURNING id',
      [id, status],
    );
    return updated.length === 1 ? this.find(id) : null;
  }
}
