import { ApprovalActor, ApprovalDecision, ApprovalRecord, DecisionOutcome, RunStatus } from '../hitl/approval';
import { RetentionStrategy } from './audit-store.port';

/**
 * Parked tool runs awaiting human approval (the flow state). `decide` must be atomic: concurrent
 * decisions on one token produce exactly one `decided` outcome (in Postgres a conditional UPDATE …
 * WHERE status = 'pending' AND token_hash = $1 RETURNING …), with the semantics of `decideApproval`.
 */
export interface ApprovalStore {
  create(record: ApprovalRecord): Promise<void>;
  decide(tokenHash: string, decision: ApprovalDecision, actor: ApprovalActor, now: Date): Promise<DecisionOutcome>;
  setRunStatus(approvalId: string, status: RunStatus): Promise<void>;
  /** One parked run by its approval id (any status), e.g. for the caller to learn how it ended. */
  get(approvalId: string): Promise<ApprovalRecord | null>;
  /** Pending and not expired, newest first. */
  listPending(now: Date, limit: number): Promise<ApprovalRecord[]>;
  countPending(now: Date): Promise<number>;
}

/** What an approver sees: the tool and its arguments exactly as the firewall rewrote them. */
export interface ApprovalSidecarRecord {
  run_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  principal_id: string | null;
  created_at: Date;
}

/**
 * The HITL sidecar (`hitl_requests.store`: null, array or database). Append-only for the
 * application; writes are best-effort (a failure never un-parks an approval); `purge` erases it.
 */
export interface ApprovalSidecarStore {
  put(record: ApprovalSidecarRecord): Promise<void>;
  getMany(runIds: string[]): Promise<Map<string, ApprovalSidecarRecord>>;
  sweep(before: Date, strategy: RetentionStrategy, dryRun: boolean): Promise<number>;
  purge(): Promise<number>;
}
