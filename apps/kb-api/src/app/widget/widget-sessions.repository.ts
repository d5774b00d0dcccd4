import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import { MAX_SESSION_STEPS, OPEN_STATUSES, SessionStatus } from './widget-catalog';

export interface WidgetSessionRow {
  id: string;
  tenant_id: string;
  key_id: string;
  project_key: string;
  identity: string | null;
  status: SessionStatus;
  origin: string | null;
  page_url: string | null;
  step_count: number;
  pending_tool: { tool: string; args: Record<string, unknown> } | null;
  created_at: Date;
  updated_at: Date;
}

export interface StepRow {
  step_index: number;
  kind: string;
  tool: string | null;
  args_json: unknown;
  diagnostic_json: unknown;
  created_at: Date;
}

/** Outcome of counting a step on a session: the updated row, or why it could not be counted. */
export type Advance = { row: WidgetSessionRow } | { refused: 'missing' | 'closed' | 'exhausted' };

const COLUMNS = 'id, tenant_id, key_id, project_key, identity, status, origin, page_url, step_count, pending_tool, created_at, updated_at';
const OPEN = `status IN (${OPEN_STATUSES.map((s) => `'${s}'`).join(', ')})`;
const UNIQUE_VIOLATION = '23505';

/** Widget sessions and their steps. Public reads are scoped by key, admin reads by tenant. */
@Injectable()
export class WidgetSessionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async create(s: { id: string; tenantId: string; keyId: string; projectKey: string; identity: string | null; origin: string | null; pageUrl: string | null; snapshot: object }): Promise<WidgetSessionRow> {
    const [row] = await queryRows<WidgetSessionRow>(
      this.db,
      `INSERT INTO kb_widget_sessions (id, tenant_id, key_id, project_key, identity, origin, page_url, snapshot, step_count)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1) RETURNING ${COLUMNS}`,
      [s.id, s.tenantId, s.keyId, s.projectKey, s.identity, s.origin, s.pageUrl, JSON.stringify(s.snapshot)],
    );
    return row;
  }

  async findForKey(keyId: string, id: string): Promise<WidgetSessionRow | null> {
    const [row] = await queryRows<WidgetSessionRow>(this.db, `SELECT ${COLUMNS} FROM kb_widget_sessions WHERE key_id = $1 AND id = $2`, [keyId, id]);
    return row ?? null;
  }

  async findInTenant(tenantId: string, id: string): Promise<(WidgetSessionRow & { key_label: string }) | null> {
    const [row] = await queryRows<WidgetSessionRow & { key_label: string }>(
      this.db,
      `SELECT ${COLUMNS.split(', ').map((c) => `s.${c}`).join(', ')}, k.label AS key_label
       FROM kb_widget_sessions s JOIN kb_widget_keys k ON k.id = s.key_id WHERE s.tenant_id = $1 AND s.id = $2`,
      [tenantId, id],
    );
    return row ?? null;
  }

  /**
   * Counts one step, atomically: only an open session under the step cap moves. A session that
   * reaches the cap is blocked, so it stays closed afterwards.
   */
  async advance(keyId: string, id: string, snapshot: object | null): Promise<Advance> {
    const [row] = await queryRows<WidgetSessionRow>(
      this.db,
      `UPDATE kb_widget_sessions SET step_count = step_count + 1, snapshot = coalesce($3::jsonb, snapshot), updated_at = clock_timestamp()
       WHERE key_id = $1 AND id = $2 AND ${OPEN} AND step_count < $4 RETURNING ${COLUMNS}`,
      [keyId, id, snapshot === null ? null : JSON.stringify(snapshot), MAX_SESSION_STEPS],
    );
    if (row) return { row };
    const current = await this.findForKey(keyId, id);
    if (!current) return { refused: 'missing' };
    if (!(OPEN_STATUSES as readonly string[]).includes(current.status)) return { refused: 'closed' };
    await this.db.query(`UPDATE kb_widget_sessions SET status = 'blocked', updated_at = clock_timestamp() WHERE id = $1 AND ${OPEN}`, [id]);
    return { refused: 'exhausted' };
  }

  async setStatus(id: string, status: SessionStatus, pendingTool: WidgetSessionRow['pending_tool']): Promise<WidgetSessionRow> {
    const [row] = await queryRows<WidgetSessionRow>(
      this.db,
      `UPDATE kb_widget_sessions SET status = $2, pending_tool = $3, updated_at = clock_timestamp() WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, status, pendingTool === null ? null : JSON.stringify(pendingTool)],
    );
    return row;
  }

  /** Aborts an open session; null when it is missing (for this key) or already closed. */
  async cancel(keyId: string, id: string): Promise<WidgetSessionRow | null> {
    const [row] = await queryRows<WidgetSessionRow>(
      this.db,
      `UPDATE kb_widget_sessions SET status = 'aborted', pending_tool = NULL, updated_at = clock_timestamp() WHERE key_id = $1 AND id = $2 AND ${OPEN} RETURNING ${COLUMNS}`,
      [keyId, id],
    );
    return row ?? null;
  }

  /** Appends a step at the next index; a concurrent append on the same session retries at the index after it. */
  async appendStep(tenantId: string, sessionId: string, s: { kind: string; tool?: string | null; args?: unknown; diagnostic?: unknown }): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.query(
          `INSERT INTO kb_widget_steps (tenant_id, session_id, step_index, kind, tool, args_json, diagnostic_json)
           SELECT $1, $2, coalesce(max(step_index) + 1, 0), $3, $4, $5, $6 FROM kb_widget_steps WHERE session_id = $2`,
          [tenantId, sessionId, s.kind, s.tool ?? null, s.args === undefined ? null : JSON.stringify(s.args), s.diagnostic === undefined ? null : JSON.stringify(s.diagnostic)],
        );
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= 4) throw e;
      }
    }
  }

  async steps(sessionId: string): Promise<StepRow[]> {
    return queryRows<StepRow>(this.db, 'SELECT step_index, kind, tool, args_json, diagnostic_json, created_at FROM kb_widget_steps WHERE session_id = $1 ORDER BY step_index', [sessionId]);
  }

  /** The identity's open sessions on a key, most recently active first. */
  async openFor(keyId: string, identity: string, limit: number): Promise<WidgetSessionRow[]> {
    return queryRows<WidgetSessionRow>(
      this.db,
      `SELECT ${COLUMNS} FROM kb_widget_sessions WHERE key_id = $1 AND identity = $2 AND ${OPEN} ORDER BY updated_at DESC, id DESC LIMIT $3`,
      [keyId, identity, limit],
    );
  }

  async page(tenantId: string, f: { status?: string; keyId?: number }, limit: number, offset: number): Promise<{ rows: Array<WidgetSessionRow & { key_label: string }>; total: number }> {
    const where = 's.tenant_id = $1 AND ($2::text IS NULL OR s.status = $2) AND ($3::bigint IS NULL OR s.key_id = $3)';
    const params = [tenantId, f.status ?? null, f.keyId ?? null];
    const [{ total }] = await queryRows<{ total: number }>(this.db, `SELECT count(*)::int AS total FROM kb_widget_sessions s WHERE ${where}`, params);
    const rows = await queryRows<WidgetSessionRow & { key_label: string }>(
      this.db,
      `SELECT ${COLUMNS.split(', ').map((c) => `s.${c}`).join(', ')}, k.label AS key_label
       FROM kb_widget_sessions s JOIN kb_widget_keys k ON k.id = s.key_id
       WHERE ${where} ORDER BY s.updated_at DESC, s.id DESC LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    return { rows, total };
  }
}
