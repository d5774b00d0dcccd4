import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { Clock } from '@platform/runtime';
import { DataSource } from 'typeorm';
import { PageWindow } from '../../admin/pagination';

export interface McpTokenRow {
  id: string;
  tenant_id: string;
  label: string;
  token_last4: string;
  scopes: string[];
  created_by: string | null;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, tenant_id, label, token_last4, scopes, created_by, last_used_at, expires_at, revoked_at, created_at';

/** Tenant MCP tokens; every statement but the lookup by hash takes the tenant. */
@Injectable()
export class McpTokensRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly clock: Clock,
  ) {}

  async insert(t: { tenantId: string; label: string; hash: string; last4: string; scopes: string[]; createdBy: string | null; expiresAt: Date | null }): Promise<McpTokenRow> {
    const [row] = await queryRows<McpTokenRow>(
      this.db,
      `INSERT INTO kb_mcp_tokens (tenant_id, label, token_hash, token_last4, scopes, created_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [t.tenantId, t.label, t.hash, t.last4, JSON.stringify(t.scopes), t.createdBy, t.expiresAt],
    );
    return row;
  }

  async page(tenantId: string, w: PageWindow): Promise<{ rows: McpTokenRow[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      queryRows<McpTokenRow>(this.db, `SELECT ${COLUMNS} FROM kb_mcp_tokens WHERE tenant_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, [tenantId, w.perPage, w.offset]),
      queryRows<{ total: number }>(this.db, 'SELECT count(*)::int AS total FROM kb_mcp_tokens WHERE tenant_id = $1', [tenantId]),
    ]);
    return { rows, total };
  }

  /** Revokes once: a second revoke keeps the first time. Null when the token is not the tenant's. */
  async revoke(tenantId: string, id: string): Promise<McpTokenRow | null> {
    const [row] = await queryRows<McpTokenRow>(
      this.db,
      `UPDATE kb_mcp_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [tenantId, id],
    );
    return row ?? null;
  }

  async byId(tenantId: string, id: string): Promise<McpTokenRow | null> {
    const [row] = await queryRows<McpTokenRow>(this.db, `SELECT ${COLUMNS} FROM kb_mcp_tokens WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return row ?? null;
  }

  async findByHash(hash: string): Promise<McpTokenRow | null> {
    const [row] = await queryRows<McpTokenRow>(this.db, `SELECT ${COLUMNS} FROM kb_mcp_tokens WHERE token_hash = $1`, [hash]);
    return row ?? null;
  }

  /** At most one write a minute per token (by the injected Clock): last_used_at is a hint, not a log. */
  async touch(id: string): Promise<void> {
    await this.db.query(
      `UPDATE kb_mcp_tokens SET last_used_at = $2::timestamptz WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`,
      [id, this.clock.now()],
    );
  }
}
