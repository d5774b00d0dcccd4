import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryRows } from '@platform/database';
import { DataSource } from 'typeorm';
import type { PageWindow } from '../../admin/pagination';
import type { ParamValues } from './command-params';

export interface CommandRunRow {
  id: string;
  command: string;
  params: ParamValues;
  status: 'running' | 'succeeded' | 'failed';
  result: Record<string, number>;
  error: string | null;
  trigger: 'api' | 'schedule';
  actor: { id: string; name: string; email: string } | null;
  idempotency_key: string | null;
  started_at: Date;
  finished_at: Date | null;
  duration_ms: number | null;
}

const SELECT = `SELECT r.id, r.command, r.params, r.status, r.result, r.error, r.trigger, r.idempotency_key, r.started_at, r.finished_at, r.duration_ms,
                       CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id::text, 'name', u.name, 'email', u.email) END AS actor
                  FROM kb_command_runs r LEFT JOIN kb_users u ON u.id = r.actor_user_id`;

/**
 * History of maintenance command runs, per tenant. Injectable in the API; a scheduled CLI run
 * constructs it on its own DataSource, so both record their runs the same way.
 */
@Injectable()
export class CommandRunsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A new running row; null when the tenant already has a run under this Idempotency-Key. */
  async start(tenantId: string, r: { command: string; params: ParamValues; trigger: 'api' | 'schedule'; actorUserId: string | null; idempotencyKey: string | null }): Promise<string | null> {
    const [row] = await queryRows<{ id: string }>(
      this.db,
      `INSERT INTO kb_command_runs (tenant_id, command, params, trigger, actor_user_id, idempotency_key) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id`,
      [tenantId, r.command, JSON.stringify(r.params), r.trigger, r.actorUserId, r.idempotencyKey],
    );
    return row?.id ?? null;
  }

  async finish(tenantId: string, id: string, outcome: { status: 'succeeded' | 'failed'; result: Record<string, number>; error: string | null }): Promise<void> {
    await this.db.query(
      `UPDATE kb_command_runs SET status = $3, result = $4, error = $5, finished_at = clock_timestamp(),
              duration_ms = GREATEST(0, round(extract(epoch FROM clock_timestamp() - started_at) * 1000))::int
        WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id, outcome.status, JSON.stringify(outcome.result), outcome.error?.slice(0, 2000) ?? null],
    );
  }

  async find(tenantId: string, id: string): Promise<CommandRunRow | null> {
    const [row] = await queryRows<CommandRunRow>(this.db, `${SELECT} WHERE r.tenant_id = $1 AND r.id = $2`, [tenantId, id]);
    return row ?? null;
  }

  async findByKey(tenantId: string, key: string): Promise<CommandRunRow | null> {
    const [row] = await queryRows<CommandRunRow>(this.db, `${SELECT} WHERE r.tenant_id = $1 AND r.idempotency_key = $2`, [tenantId, key]);
    return row ?? null;
  }

  async page(tenantId: string, f: { command?: string; status?: string }, w: PageWindow): Promise<{ rows: CommandRunRow[]; total: number }> {
    const where = `r.tenant_id = $1 AND ($2::text IS NULL OR r.command = $2) AND ($3::text IS NULL OR r.status = $3)`;
    const params = [tenantId, f.command ?? null, f.status ?? null];
    const [{ n }] = await queryRows<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM kb_command_runs r WHERE ${where}`, params);
    const rows = await queryRows<CommandRunRow>(this.db, `${SELECT} WHERE ${where} ORDER BY r.id DESC LIMIT ${w.perPage} OFFSET ${w.offset}`, params);
    return { rows, total: n };
  }

  /** The latest run of each command, for the scheduler status. */
  async latestPerCommand(tenantId: string): Promise<Map<string, CommandRunRow>> {
    const rows = await queryRows<CommandRunRow>(
      this.db,
      `${SELECT} WHERE r.id IN (SELECT DISTINCT ON (command) id FROM kb_command_runs WHERE tenant_id = $1 ORDER BY command, started_at DESC, id DESC)`,
      [tenantId],
    );
    return new Map(rows.map((r) => [r.command, r]));
  }
}
