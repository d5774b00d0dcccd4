import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { PageWindow } from '../../admin/pagination';

export type McpCallOutcome = 'ok' | 'denied' | 'error';

export interface McpAuditEntry {
  tenantId: string;
  tokenId: string | null;
  userId: string | null;
  tool: string;
  argumentsHash: string;
  arguments: Record<string, unknown>;
  outcome: McpCallOutcome;
  reason: string | null;
  durationMs: number;
}

export interface McpAuditRow {
  id: string;
  token_id: string | null;
  user_id: string | null;
  tool: string;
  arguments_hash: string;
  arguments: Record<string, unknown>;
  outcome: McpCallOutcome;
  reason: string | null;
  duration_ms: number;
  created_at: Date;
}

export interface McpAuditFilters {
  tool?: string;
  outcome?: McpCallOutcome;
  tokenId?: string;
  from?: string;
  to?: string;
}

/** The tools/call audit; every statement takes the tenant. */
@Injectable()
export class McpAuditRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(e: McpAuditEntry): Promise<string> {
    const [row] = await queryRows<{ id: string }>(
      this.db,
      `INSERT INTO kb_mcp_tool_call_audit (tenant_id, token_id, user_id, tool, arguments_hash, arguments, outcome, reason, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [e.tenantId, e.tokenId, e.userId, e.tool, e.argumentsHash, JSON.stringify(e.arguments), e.outcome, e.reason, e.durationMs],
    );
    return row.id;
  }

  /** The outcome of a call whose row was written before the tool ran; false when no row was updated. */
  async finish(tenantId: string, id: string, outcome: McpCallOutcome, reason: string | null, durationMs: number): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      `UPDATE kb_mcp_tool_call_audit SET outcome = $3, reason = $4, duration_ms = $5 WHERE tenant_id = $1 AND id = $2 RETURNING id`,
      [tenantId, id, outcome, reason, durationMs],
    );
    return rows.length === 1;
  }

  /** Newest first; `to` is inclusive of its whole day when given as a date. */
  async page(tenantId: string, f: McpAuditFilters, w: PageWindow): Promise<{ rows: McpAuditRow[]; total: number }> {
    const params: unknown[] = [tenantId];
    const where = ['tenant_id = $1'];
    const p = (v: unknown) => `$${params.push(v)}`;
    if (f.tool) where.push(`tool = ${p(f.tool)}`);
    if (f.outcome) where.push(`outcome = ${p(f.outcome)}`);
    if (f.tokenId) where.push(`token_id = ${p(f.tokenId)}`);
    if (f.from) where.push(`created_at >= ${p(f.from)}::timestamptz`);
    if (f.to) where.push(/^\d{4}-\d{2}-\d{2}$/.test(f.to) ? `created_at < ${p(f.to)}::date + 1` : `created_at <= ${p(f.to)}::timestamptz`);
    const filter = where.join(' AND ');
    const [rows, [{ total }]] = await Promise.all([
      queryRows<McpAuditRow>(
        this.db,
        `SELECT id, token_id, user_id, tool, arguments_hash, arguments, outcome, reason, duration_ms, created_at
           FROM kb_mcp_tool_call_audit WHERE ${filter} ORDER BY created_at DESC, id DESC LIMIT ${w.perPage} OFFSET ${w.offset}`,
        params,
      ),
      queryRows<{ total: number }>(this.db, `SELECT count(*)::int AS total FROM kb_mcp_tool_call_audit WHERE ${filter}`, params),
    ]);
    return { rows, total };
  }
}
