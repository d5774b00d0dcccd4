import { ApprovalActor, ApprovalDecision, ApprovalRecord, decideApproval, DecisionOutcome, isExpired, RunStatus } from '../hitl/approval';
import { RetentionStrategy } from '../ports/audit-store.port';
import { ApprovalSidecarRecord, ApprovalSidecarStore, ApprovalStore } from '../ports/approval-store.port';
import { copy } from './keyset';

/**
 * In-process approval store. `decide` reads and writes without an await in between, so on one event
 * loop it is atomic like the conditional update a database store uses.
 */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly byTokenHash = new Map<string, ApprovalRecord>();

  async create(record: ApprovalRecord): Promise<void> {
    this.byTokenHash.set(record.token_hash, copy(record));
  }

  async decide(tokenHash: string, decision: ApprovalDecision, actor: ApprovalActor, now: Date): Promise<DecisionOutcome> {
    const current = this.byTokenHash.get(tokenHash);
    const outcome = decideApproval(current, decision, actor, now);
    if (outcome.kind === 'decided') this.byTokenHash.set(tokenHash, copy(outcome.record));
    if (outcome.kind === 'expired' && current) this.byTokenHash.set(tokenHash, { ...current, status: 'expired' });
    return copy(outcome);
  }

  async setRunStatus(approvalId: string, status: RunStatus): Promise<void> {
    for (const record of this.byTokenHash.values()) if (record.approval_id === approvalId) record.run_status = status;
  }

  async get(approvalId: string): Promise<ApprovalRecord | null> {
    for (const record of this.byTokenHash.values()) if (record.approval_id === approvalId) return copy(record);
    return null;
  }

  async listPending(now: Date, limit: number): Promise<ApprovalRecord[]> {
    return copy(
      [...this.byTokenHash.values()]
        .filter((r) => r.status === 'pending' && !isExpired(r, now))
        .sort((a, b) => b.created_at.getTime() - a.created_at.getTime())
        .slice(0, limit),
    );
  }

  async countPending(now: Date): Promise<number> {
    return [...this.byTokenHash.values()].filter((r) => r.status === 'pending' && !isExpired(r, now)).length;
  }
}

/** The `array` sidecar store. */
export class MemoryApprovalSidecar implements ApprovalSidecarStore {
  private rows: ApprovalSidecarRecord[] = [];

  async put(record: ApprovalSidecarRecord): Promise<void> {
    this.rows.push(copy(record));
  }

  async getMany(runIds: string[]): Promise<Map<string, ApprovalSidecarRecord>> {
    const wanted = new Set(runIds);
    return new Map(this.rows.filter((r) => wanted.has(r.run_id)).map((r) => [r.run_id, copy(r)]));
  }

  async sweep(before: Date, strategy: RetentionStrategy, dryRun: boolean): Promise<number> {
    const old = this.rows.filter((r) => r.created_at < before);
    if (dryRun) return old.length;
    if (strategy === 'purge') this.rows = this.rows.filter((r) => r.created_at >= before);
    else for (const r of old) Object.assign(r, { arguments: {}, principal_id: null });
    return old.length;
  }

  async purge(): Promise<number> {
    const n = this.rows.length;
    this.rows = [];
    return n;
  }
}
