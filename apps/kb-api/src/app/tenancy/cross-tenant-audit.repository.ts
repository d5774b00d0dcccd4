import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import type { PageWindow } from '../admin/pagination';

export interface CrossTenantEntry {
  actorUserId: string;
  actorEmail: string;
  credential: 'session' | 'token';
  homeTenantId: string;
  targetTenantId: string;
  method: string;
  route: string;
  path: string;
  requestId: string | null;
}

export interface CrossTenantAuditRow {
  id: string;
  actor_user_id: string;
  actor_email: string;
  credential: 'session' | 'token';
  home_tenant_id: string;
  target_tenant_id: string;
  method: string;
  route: string;
  path: string;
  request_id: string | null;
  created_at: Date;
}

export interface CrossTenantAuditFilter {
  actorUserId?: string;
  targetTenantId?: string;
}

/**
 * Every request a platform admin makes in a tenant other than their home one. The log is global
 * (it belongs to the platform, not to any tenant), so its queries take no tenant.
 */
@Injectable()
export class CrossTenantAuditRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async record(e: CrossTenantEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO kb_cross_tenant_audit (actor_user_id, actor_email, credential, home_tenant_id, target_tenant_id, method, route, path, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [e.actorUserId, e.actorEmail, e.credential, e.homeTenantId, e.targetTenantId, e.method, e.route.slice(0, 500), e.path.slice(0, 2000), e.requestId],
    );
  }

  async list(f: CrossTenantAuditFilter, w: PageWindow): Promise<{ rows: CrossTenantAuditRow[]; total: number }> {
    const where = '($1::bigint IS NULL OR actor_user_id = $1) AND ($2::text IS NULL OR target_tenant_id = $2)';
    const params = [f.actorUserId ?? null, f.targetTenantId ?? null];
    const [rows, [count]] = await Promise.all([
      queryRows<CrossTenantAuditRow>(
        this.db,
        `SELECT * FROM kb_cross_tenant_audit WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
        [...params, w.perPage, w.offset],
      ),
      queryRows<{ total: string }>(this.db, `SELECT count(*) AS total FROM kb_cross_tenant_audit WHERE ${where}`, params),
    ]);
    return { rows, total: Number(count.total) };
  }
}
