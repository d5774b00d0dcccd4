import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type ParkedChannel = 'mcp' | 'widget';
export type ParkedStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'rejected' | 'expired';

export interface ParkedCallRow {
  id: string;
  tenant_id: string;
  approval_id: string;
  run_id: string;
  channel: ParkedChannel;
  tool: string;
  arguments: Record<string, unknown>;
  /** What the call runs within besides its arguments (the widget's project key). */
  scope: Record<string, unknown>;
  principal_id: string;
  user_id: string | null;
  mcp_token_id: string | null;
  widget_session_id: string | null;
  status: ParkedStatus;
  result: Record<string, unknown> | null;
  expires_at: Date | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface NewParkedCall {
  tenantId: string;
  approvalId: string;
  runId: string;
  tokenHash: string;
  channel: ParkedChannel;
  tool: string;
  arguments: Record<string, unknown>;
  scope?: Record<string, unknown>;
  principalId: string;
  userId: string | null;
  mcpTokenId: string | null;
  widgetSessionId: string | null;
  expiresAt: Date | null;
}

const COLUMNS = `id, tenant_id, approval_id, run_id, channel, tool, arguments, scope, principal_id, user_id, mcp_token_id, widget_session_id, status, result,
  expires_at, created_at, finished_at`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parked kb tool calls; every statement takes the tenant. State changes are conditional, so each happens once. */
@Injectable()
export class ParkedCallsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(c: NewParkedCall): Promise<void> {
    await this.db.query(
      `INSERT INTO kb_parked_tool_calls (tenant_id, approval_id, run_id, token_hash, channel, tool, arguments, scope, principal_id, user_id, mcp_token_id, widget_session_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [c.tenantId, c.approvalId, c.runId, c.tokenHash, c.channel, c.tool, JSON.stringify(c.arguments), JSON.stringify(c.scope ?? {}), c.principalId, c.userId, c.mcpTokenId, c.widgetSessionId, c.expiresAt],
    );
  }

  async byApproval(tenantId: string, approvalId: string): Promise<ParkedCallRow | null> {
    if (!UUID.test(approvalId)) return null;
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM kb_parked_tool_calls WHERE tenant_id = $1 AND approval_id = $2`, [tenantId, approvalId]);
    return row ?? null;
  }

  async byTokenHash(tenantId: string, tokenHash: string): Promise<ParkedCallRow | null> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM kb_parked_tool_calls WHERE tenant_id = $1 AND token_hash = $2`, [tenantId, tokenHash]);
    return row ?? null;
  }

  /** pending → running; null when another delivery claimed it first (or it was settled): the tool then does not run. */
  async claim(tenantId: string, approvalId: string): Promise<ParkedCallRow | null> {
    const [rows] = await this.db.query(
      `UPDATE kb_parked_tool_calls SET status = 'running' WHERE tenant_id = $1 AND approval_id = $2 AND status = 'pending' RETURNING ${COLUMNS}`,
      [tenantId, approvalId],
    );
    return rows[0] ?? null;
  }

  /** The run's end (running → succeeded | failed), or a decision without a run (pending → rejected | expired). */
  async finish(tenantId: string, approvalId: string, from: ParkedStatus, to: ParkedStatus, result: Record<string, unknown>): Promise<ParkedCallRow | null> {
    const [rows] = await this.db.query(
      `UPDATE kb_parked_tool_calls SET status = $4, result = $5, finished_at = now()
        WHERE tenant_id = $1 AND approval_id = $2 AND status = $3 RETURNING ${COLUMNS}`,
      [tenantId, approvalId, from, to, JSON.stringify(result)],
    );
    return rows[0] ?? null;
  }
}
