import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';

export interface IdentityLinkRow {
  id: string;
  tenant_id: string;
  issuer: string;
  subject: string;
  user_id: string;
  created_by: string | null;
  created_at: Date;
}

const COLUMNS = 'id, tenant_id, issuer, subject, user_id, created_by, created_at';

/** iam identity ↔ KB user links; every statement but the authentication lookup takes the tenant. */
@Injectable()
export class IdentityLinksRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** While authenticating, before any tenant is chosen: the link names it. */
  async findBySubject(issuer: string, subject: string): Promise<IdentityLinkRow | null> {
    const [row] = await queryRows<IdentityLinkRow>(this.db, `SELECT ${COLUMNS} FROM kb_identity_links WHERE issuer = $1 AND subject = $2`, [issuer, subject]);
    return row ?? null;
  }

  async list(tenantId: string): Promise<IdentityLinkRow[]> {
    return queryRows<IdentityLinkRow>(this.db, `SELECT ${COLUMNS} FROM kb_identity_links WHERE tenant_id = $1 ORDER BY id DESC`, [tenantId]);
  }

  /** Null when the subject is linked already (in any tenant). */
  async insert(l: { tenantId: string; issuer: string; subject: string; userId: string; createdBy: string | null }): Promise<IdentityLinkRow | null> {
    const [row] = await queryRows<IdentityLinkRow>(
      this.db,
      `INSERT INTO kb_identity_links (tenant_id, issuer, subject, user_id, created_by) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (issuer, subject) DO NOTHING RETURNING ${COLUMNS}`,
      [l.tenantId, l.issuer, l.subject, l.userId, l.createdBy],
    );
    return row ?? null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(this.db, 'DELETE FROM kb_identity_links WHERE tenant_id = $1 AND id = $2 RETURNING id', [tenantId, id]);
    return rows.length > 0;
  }
}
