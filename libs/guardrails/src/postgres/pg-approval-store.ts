import { ApprovalActor, ApprovalDecision, ApprovalRecord, decideApproval, DecisionOutcome, RunStatus } from '../hitl/approval';
import { RetentionStrategy } from '../ports/audit-store.port';
import { ApprovalSidecarRecord, ApprovalSidecarStore, ApprovalStore } from '../ports/approval-store.port';
import { SqlRunner } from './tables';

const APPROVAL_COLUMNS =
  'approval_id, run_id, step_name, status, run_status, token_hash, tool, arguments, principal_id, actor, created_at, expires_at, decided_at, tenant_id';

/**
 * Parked runs in Postgres. A decision is one conditional UPDATE on a pending, unexpired row, so of
 * any number of concurrent decisions on one token exactly one gets `decided`; the rest read the row
 * afterwards and get `already`, `conflict` or `expired` from the same state machine.
 */
export class PgApprovalStore implements ApprovalStore {
  constructor(
    private readonly db: SqlRunner,
    private readonly table = 'guardrails_approvals',
  ) {}

  async create(r: ApprovalRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.table} (${APPROVAL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [r.approval_id, r.run_id, r.step_name, r.status, r.run_status, r.token_hash, r.tool, JSON.stringify(r.arguments), r.principal_id,
        r.actor === null ? null : JSON.stringify(r.actor), r.created_at, r.expires_at, r.decided_at, r.tenant_id ?? null],
    );
  }

  async decide(tokenHash: string, decision: ApprovalDecision, actor: ApprovalActor, now: Date): Promise<DecisionOutcome> {
    const [won] = await this.db.query<ApprovalRecord>(
      `UPDATE ${this.table} SET status = $2, run_status = $3, actor = $4, decided_at = $5
        WHERE token_hash = $1 AND status = 'pending' AND (expires_at IS NULL OR expires_at > $5)
        RETURNING ${APPROVAL_COLUMNS}`,
      [tokenHash, decision, decision === 'approved' ? 'running' : 'failed', JSON.stringify(actor), now],
    );
    if (won) return { kind: 'decided', record: won };
    const [current] = await this.db.query<ApprovalRecord>(`SELECT ${APPROVAL_COLUMNS} FROM ${this.table} WHERE token_hash = $1`, [tokenHash]);
    const outcome = decideApproval(current, decision, actor, now);
    if (outcome.kind === 'expired') {
      await this.db.query(`UPDATE ${this.table} SET status = 'expired' WHERE token_hash = $1 AND status = 'pending'`, [tokenHash]);
    }
    // The UPDATE above failed, so the row is no longer decidable: never report a second `decided`.
    return outcome.kind === 'decided' ? { kind: 'expired' } : outcome;
  }

  async setRunStatus(approvalId: string, status: RunStatus): Promise<void> {
    await this.db.query(`UPDATE ${this.table} SET run_status = $2 WHERE approval_id = $1`, [approvalId, status]);
  }

  async get(approvalId: string): Promise<ApprovalRecord | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(approvalId)) return null;
    const [row] = await this.db.query<ApprovalRecord>(`SELECT ${APPROVAL_COLUMNS} FROM ${this.table} WHERE approval_id = $1`, [approvalId]);
    return row ?? null;
  }

  async listPending(now: Date, limit: number): Promise<ApprovalRecord[]> {
    return this.db.query<ApprovalRecord>(
      `SELECT ${APPROVAL_COLUMNS} FROM ${this.table}
        WHERE status = 'pending' AND (expires_at IS NULL OR expires_at > $1) ORDER BY created_at DESC, approval_id LIMIT $2`,
      [now, limit],
    );
  }

  async countPending(now: Date): Promise<number> {
    const [r] = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.table} WHERE status = 'pending' AND (expires_at IS NULL OR expires_at > $1)`,
      [now],
    );
    return Number(r.n);
  }
}

/** The `database` HITL sidecar: append-only rows per parked run, erasable by purge. */
export class PgApprovalSidecar implements ApprovalSidecarStore {
  constructor(
    private readonly db: SqlRunner,
    private readonly table = 'guardrails_hitl_requests',
  ) {}

  async put(r: ApprovalSidecarRecord): Promise<void> {
    await this.db.query(`INSERT INTO ${this.table} (run_id, tool, arguments, principal_id, created_at) VALUES ($1, $2, $3, $4, $5)`, [
      r.run_id,
      r.tool,
      JSON.stringify(r.arguments),
      r.principal_id,
      r.created_at,
    ]);
  }

  async getMany(runIds: string[]): Promise<Map<string, ApprovalSidecarRecord>> {
    if (runIds.length === 0) return new Map();
    const rows = await this.db.query<ApprovalSidecarRecord>(
      `SELECT DISTINCT ON (run_id) run_id::text AS run_id, tool, arguments, principal_id, created_at
         FROM ${this.table} WHERE run_id = ANY($1::uuid[]) ORDER BY run_id, id`,
      [runIds],
    );
    return new Map(rows.map((r) => [r.run_id, r]));
  }

  async sweep(before: Date, strategy: RetentionStrategy, dryRun: boolean): Promise<number> {
    const sql = dryRun
      ? `SELECT count(*) AS n FROM ${this.table} WHERE created_at < $1`
      : strategy === 'purge'
        ? `WITH gone AS (DELETE FROM ${this.table} WHERE created_at < $1 RETURNING 1) SELECT count(*) AS n FROM gone`
        : `WITH done AS (UPDATE ${this.table} SET arguments = '{}'::jsonb, principal_id = NULL
             WHERE created_at < $1 AND (arguments <> '{}'::jsonb OR principal_id IS NOT NULL) RETURNING 1) SELECT count(*) AS n FROM done`;
    const [r] = await this.db.query<{ n: string }>(sql, [before]);
    return Number(r.n);
  }

  async purge(): Promise<number> {
    const [r] = await this.db.query<{ n: string }>(`WITH gone AS (DELETE FROM ${this.table} RETURNING 1) SELECT count(*) AS n FROM gone`);
    return Number(r.n);
  }
}
