import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface TenantRow {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  created_at: Date;
  updated_at: Date;
}

export const TENANT_ID = /^[a-z0-9_-]{1,50}$/;

@Injectable()
export class TenantsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async find(id: string): Promise<TenantRow | null> {
    if (!TENANT_ID.test(id)) return null;
    const [row] = await this.db.query('SELECT * FROM kb_tenants WHERE id = $1', [id]);
    return row ?? null;
  }

  /** Just a tenant's status (null for an unknown id): the per-request suspension check reads this. */
  async statusOf(id: string): Promise<TenantRow['status'] | null> {
    const [row]: Array<{ status: TenantRow['status'] }> = await this.db.query('SELECT status FROM kb_tenants WHERE id = $1', [id]);
    return row?.status ?? null;
  }

  /** The ids of the tenants that are active, in id order (a scheduled command runs in each). */
  async activeIds(): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(`SELECT id FROM kb_tenants WHERE status = 'active' ORDER BY id`);
    return rows.map((r) => r.id);
  }
}
