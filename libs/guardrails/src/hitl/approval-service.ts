import { ApprovalSidecarStore, ApprovalStore } from '../ports/approval-store.port';
import { Clock } from '../ports/keyset-page';
import { ApprovalActor, ApprovalDecision, ApprovalRecord, approvalRequiredMessage, ApprovalStatus, isExpired, newApproval, RunStatus } from './approval';
import { hashApprovalToken, isWellFormedApprovalToken } from './approval-token';
import { timeAgo, timeUntil } from './relative-time';

/**
 * Hands an approved call to the process that owns its tool (e.g. over a durable queue) when this
 * process has no executor for it. Called once per approval: only the deciding call dispatches.
 */
export type ApprovedCallDispatcher = (call: ApprovedCall) => Promise<void>;

export interface ApprovedCall {
  approval_id: string;
  run_id: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/** Runs an approved call. Registered per tool name by the host. */
export type ToolExecutor = (args: Record<string, unknown>, context: { runId: string; approvalId: string }) => Promise<unknown>;

export interface ParkedCall {
  approval_id: string;
  run_id: string;
  expires_at: Date | null;
  /** For the approver only (e.g. in a notification); never give it to the model. */
  token: string;
  /** What the model is told instead of the tool's result. */
  message: string;
}

export type ApprovalResult =
  | { decision: 'approved'; executed: boolean; result?: unknown; error?: string; dispatched?: boolean }
  | { decision: 'rejected' }
  | { decision: 'failed'; error: 'decision_failed' }
  | { decision: 'unavailable'; error: 'hitl_unavailable' };

export interface PendingApprovalView {
  approval_id: string;
  run_id: string;
  step_name: string;
  status: string;
  expires_at: string | null;
  created_at: string;
  tool: string;
  arguments: Record<string, unknown>;
  requested_ago: string;
  expires_in: string | null;
  /** v1.x additions: who the parked call belongs to, where the host knows it (else null). */
  tenant_id: string | null;
  principal_id: string | null;
}

/** How a parked run stands, for the host to tell its caller (no token, no arguments). */
export interface ApprovalStatusView {
  approval_id: string;
  run_id: string;
  tool: string;
  /** `expired` once past expires_at, even before anyone tried to decide it. */
  status: ApprovalStatus;
  run_status: RunStatus;
  tenant_id: string | null;
  principal_id: string | null;
  created_at: string;
  expires_at: string | null;
  decided_at: string | null;
}

/**
 * Human-in-the-loop approvals over the ports: park a destructive call, decide by token, run an
 * approved call exactly once through its registered executor. The sidecar write is best-effort.
 */
export class ApprovalService {
  private readonly executors = new Map<string, ToolExecutor>();
  private dispatcher?: ApprovedCallDispatcher;

  constructor(
    private readonly store: ApprovalStore | undefined,
    private readonly sidecar: ApprovalSidecarStore | undefined,
    private readonly clock: Clock,
    private readonly ttlMinutes: number,
    private readonly onPortError: (error: unknown, port: string) => void,
  ) {}

  get available(): boolean {
    return this.store !== undefined;
  }

  registerExecutor(tool: string, executor: ToolExecutor): void {
    this.executors.set(tool, executor);
  }

  setDispatcher(dispatcher: ApprovedCallDispatcher): void {
    this.dispatcher = dispatcher;
  }

  /**
   * Runs a dispatched call in the process that owns the tool and records how the run ended.
   * Callers deliver each call once (a queue job id per approval), so the tool runs at most once.
   */
  async runDispatched(call: ApprovedCall): Promise<ApprovalResult> {
    return this.execute({ approval_id: call.approval_id, run_id: call.run_id, tool: call.tool, arguments: call.arguments });
  }

  /** Parks a call; throws when the approval store fails (the caller applies hitl.fallback). */
  async park(tool: string, args: Record<string, unknown>, principalId: string | number | null, tenantId: string | null = null): Promise<ParkedCall> {
    if (!this.store) throw new Error('HITL is unavailable');
    const now = this.clock.now();
    const { record, token } = newApproval({ tool, arguments: args, principalId, tenantId, now, ttlMinutes: this.ttlMinutes });
    await this.store.create(record);
    if (this.sidecar) {
      try {
        await this.sidecar.put({ run_id: record.run_id, tool, arguments: args, principal_id: record.principal_id, created_at: now });
      } catch (e) {
        // Best-effort by contract: the approval stays parked, the admin view just lacks details.
        this.onPortError(e, 'hitl_sidecar');
      }
    }
    return { approval_id: record.approval_id, run_id: record.run_id, expires_at: record.expires_at, token, message: approvalRequiredMessage(record) };
  }

  async decide(token: string, decision: ApprovalDecision, actor: ApprovalActor): Promise<ApprovalResult> {
    if (!this.store) return { decision: 'unavailable', error: 'hitl_unavailable' };
    if (!isWellFormedApprovalToken(token)) return { decision: 'failed', error: 'decision_failed' };
    const outcome = await this.store.decide(hashApprovalToken(token), decision, actor, this.clock.now());
    if (outcome.kind === 'unknown' || outcome.kind === 'expired' || outcome.kind === 'conflict') {
      return { decision: 'failed', error: 'decision_failed' };
    }
    if (decision === 'rejected') return { decision: 'rejected' };
    // Only the call that made the decision runs the tool; a repeated approve is a no-op success.
    if (outcome.kind === 'already') return { decision: 'approved', executed: false };
    return this.execute(outcome.record);
  }

  private async execute(record: Pick<ApprovalRecord, 'approval_id' | 'run_id' | 'tool' | 'arguments'>): Promise<ApprovalResult> {
    const executor = this.executors.get(record.tool);
    if (!executor && this.dispatcher) {
      const call = { approval_id: record.approval_id, run_id: record.run_id, tool: record.tool, arguments: record.arguments };
      try {
        await this.dispatcher(call);
        return { decision: 'approved', executed: false, dispatched: true };
      } catch (e) {
        await this.store!.setRunStatus(record.approval_id, 'failed');
        return { decision: 'approved', executed: false, error: `dispatch failed: ${(e as Error).message}` };
      }
    }
    if (!executor) {
      await this.store!.setRunStatus(record.approval_id, 'failed');
      return { decision: 'approved', executed: false, error: `no executor registered for ${record.tool}` };
    }
    try {
      const result = await executor(record.arguments, { runId: record.run_id, approvalId: record.approval_id });
      await this.store!.setRunStatus(record.approval_id, 'succeeded');
      return { decision: 'approved', executed: true, result };
    } catch (e) {
      await this.store!.setRunStatus(record.approval_id, 'failed');
      return { decision: 'approved', executed: true, error: (e as Error).message };
    }
  }

  /** Pending approvals (newest 50) with the sidecar's tool and arguments; [] when unavailable. */
  async listPending(limit = 50): Promise<PendingApprovalView[]> {
    if (!this.store) return [];
    const now = this.clock.now();
    const pending = await this.store.listPending(now, limit);
    let details = new Map<string, { tool: string; arguments: Record<string, unknown> }>();
    if (this.sidecar && pending.length) {
      try {
        details = await this.sidecar.getMany(pending.map((p) => p.run_id));
      } catch (e) {
        this.onPortError(e, 'hitl_sidecar');
      }
    }
    return pending.map((p) => ({
      approval_id: p.approval_id,
      run_id: p.run_id,
      step_name: p.step_name,
      status: p.status,
      expires_at: p.expires_at?.toISOString() ?? null,
      created_at: p.created_at.toISOString(),
      tool: details.get(p.run_id)?.tool ?? '',
      arguments: details.get(p.run_id)?.arguments ?? {},
      requested_ago: timeAgo(p.created_at, now),
      expires_in: p.expires_at ? timeUntil(p.expires_at, now) : null,
      tenant_id: p.tenant_id ?? null,
      principal_id: p.principal_id,
    }));
  }

  /** One parked run's state by approval id; null when unknown or HITL is unavailable. */
  async status(approvalId: string): Promise<ApprovalStatusView | null> {
    if (!this.store) return null;
    const r = await this.store.get(approvalId);
    if (!r) return null;
    return {
      approval_id: r.approval_id,
      run_id: r.run_id,
      tool: r.tool,
      status: isExpired(r, this.clock.now()) ? 'expired' : r.status,
      run_status: r.run_status,
      tenant_id: r.tenant_id ?? null,
      principal_id: r.principal_id,
      created_at: new Date(r.created_at).toISOString(),
      expires_at: r.expires_at ? new Date(r.expires_at).toISOString() : null,
      decided_at: r.decided_at ? new Date(r.decided_at).toISOString() : null,
    };
  }

  async countPending(): Promise<number> {
    return this.store ? this.store.countPending(this.clock.now()) : 0;
  }
}
