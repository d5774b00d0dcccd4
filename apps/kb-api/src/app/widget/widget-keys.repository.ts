import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';

export interface WidgetKeyRow {
  id: string;
  tenant_id: string;
  label: string;
  project_key: string;
  public_key: string;
  secret_hash: string;
  identity_secret_hash: string | null;
  allowed_origins: string[];
  rate_limit: number;
  skill: string | null;
  host_tools_enabled: boolean;
  theme: Record<string, string>;
  user_auth_enabled: boolean;
  active: boolean;
  revoked_at: Date | null;
  identity_credential_version: number;
  created_at: Date;
  updated_at: Date;
}

/** Columns an update may set (whitelisted: they become SQL identifiers). */
export const UPDATABLE = ['label', 'project_key', 'allowed_origins', 'rate_limit', 'skill', 'host_tools_enabled', 'theme', 'user_auth_enabled', 'active', 'secret_hash', 'identity_secret_hash'] as const;
export type KeyChanges = Partial<Record<(typeof UPDATABLE)[number], unknown>>;
const JSON_COLUMNS = new Set(['allowed_origins', 'theme']);

/** Widget keys, always within one tenant; the public lookup is the only unscoped read (the key names its tenant). */
@Injectable()
export class WidgetKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(tenantId: string, k: { label: string; project_key: string; public_key: string; secret_hash: string; identity_secret_hash: string | null; allowed_origins: string[]; rate_limit: number; skill: string | null; host_tools_enabled: boolean; theme: object; user_auth_enabled: boolean; created_by: string | null }): Promise<WidgetKeyRow> {
    const [row] = await queryRows<WidgetKeyRow>(
      this.db,
      `INSERT INTO kb_widget_keys (tenant_id, label, project_key, public_key, secret_hash, identity_secret_hash, allowed_origins, rate_limit, skill, host_tools_enabled, theme, user_auth_enabled, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
      [tenantId, k.label, k.project_key, k.public_key, k.secret_hash, k.identity_secret_hash, JSON.stringify(k.allowed_origins), k.rate_limit, k.skill, k.host_tools_enabled, JSON.stringify(k.theme), k.user_auth_enabled, k.created_by],
    );
    return row;
  }

  async page(tenantId: string, search: string | null, limit: number, offset: number): Promise<{ rows: WidgetKeyRow[]; total: number }> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR label ILIKE $2 OR project_key ILIKE $2 OR public_key ILIKE $2)`;
    const [{ total }] = await queryRows<{ total: number }>(this.db, `SELECT count(*)::int AS total FROM kb_widget_keys WHERE ${where}`, [tenantId, search]);
    const rows = await queryRows<WidgetKeyRow>(this.db, `SELECT * FROM kb_widget_keys WHERE ${where} ORDER BY id DESC LIMIT $3 OFFSET $4`, [tenantId, search, limit, offset]);
    return { rows, total };
  }

  async find(tenantId: string, id: string): Promise<WidgetKeyRow | null> {
    const [row] = await queryRows<WidgetKeyRow>(this.db, 'SELECT * FROM kb_widget_keys WHERE tenant_id = $1 AND id = $2', [tenantId, id]);
    return row ?? null;
  }

  async findByPublicKey(publicKey: string): Promise<WidgetKeyRow | null> {
    const [row] = await queryRows<WidgetKeyRow>(this.db, 'SELECT * FROM kb_widget_keys WHERE public_key = $1', [publicKey]);
    return row ?? null;
  }

  async findById(id: string): Promise<WidgetKeyRow | null> {
    const [row] = await queryRows<WidgetKeyRow>(this.db, 'SELECT * FROM kb_widget_keys WHERE id = $1', [id]);
    return row ?? null;
  }

  /**
   * Applies changes. With `expectedVersion` it is a compare-and-set on identity_credential_version
   * (null when the row exists at another version or not at all); `bumpVersion` moves the version.
   */
  async update(tenantId: string, id: string, changes: KeyChanges, o: { expectedVersion?: number; bumpVersion: boolean }): Promise<WidgetKeyRow | null> {
    const params: unknown[] = [tenantId, id];
    const sets = ['updated_at = now()'];
    for (const column of UPDATABLE) {
      if (!(column in changes)) continue;
      params.push(JSON_COLUMNS.has(column) ? JSON.stringify(changes[column]) : changes[column]);
      sets.push(`${column} = $${params.length}`);
    }
    if (o.bumpVersion) sets.push('identity_credential_version = identity_credential_version + 1');
    let where = 'tenant_id = $1 AND id = $2';
    if (o.expectedVersion !== undefined) {
      params.push(o.expectedVersion);
      where += ` AND identity_credential_version = $${params.length}`;
    }
    const [row] = await queryRows<WidgetKeyRow>(this.db, `UPDATE kb_widget_keys SET ${sets.join(', ')} WHERE ${where} RETURNING *`, params);
    return row ?? null;
  }

  /** Revoking is final: the key stops answering and cannot be enabled again. */
  async revoke(tenantId: string, id: string): Promise<WidgetKeyRow | null> {
    const [row] = await queryRows<WidgetKeyRow>(
      this.db,
      `UPDATE kb_widget_keys SET active = false, revoked_at = coalesce(revoked_at, now()), updated_at = now(), identity_credential_version = identity_credential_version + 1
       WHERE tenant_id = $1 AND id = $2 RETURNING *`,
      [tenantId, id],
    );
    return row ?? null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(this.db, 'DELETE FROM kb_widget_keys WHERE tenant_id = $1 AND id = $2 RETURNING id', [tenantId, id]);
    return rows.length > 0;
  }

  async projectExists(tenantId: string, projectKey: string): Promise<boolean> {
    const rows = await queryRows(this.db, 'SELECT 1 FROM kb_projects WHERE tenant_id = $1 AND project_key = $2', [tenantId, projectKey]);
    return rows.length > 0;
  }

  async projectName(tenantId: string, projectKey: string): Promise<string | null> {
    const [row] = await queryRows<{ name: string }>(this.db, 'SELECT name FROM kb_projects WHERE tenant_id = $1 AND project_key = $2', [tenantId, projectKey]);
    return row?.name ?? null;
  }
}
