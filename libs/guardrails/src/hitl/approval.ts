import { randomUUID } from 'node:crypto';
import { generateApprovalToken, hashApprovalToken } from './approval-token';

export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired';
/** The parked tool run: paused until approved; approve runs it, reject fails it. */
export type RunStatus = 'paused' | 'running' | 'succeeded' | 'failed';
export type ApprovalDecision = 'approved' | 'rejected';
export type ApprovalActor = Record<string, string | number | boolean | null>;

export interface ApprovalRecord {
  approval_id: string;
  run_id: string;
  step_name: string;
  status: ApprovalStatus;
  run_status: RunStatus;
  token_hash: string;
  created_at: Date;
  /** Null when the approval never expires. */
  expires_at: Date | null;
  decided_at: Date | null;
  actor: ApprovalActor | null;
  /** The parked call, kept with the run so approval can execute it without the sidecar. */
  tool: string;
  arguments: Record<string, unknown>;
  principal_id: string | null;
  /** v1.x addition: the tenant the parked call belongs to, where the host knows it. */
  tenant_id: string | null;
}

export const APPROVAL_STEP_NAME = 'approval';

export interface NewApproval {
  record: ApprovalRecord;
  /** The plain single-use token: hand it to the approver; it is not stored. */
  token: string;
}

export function newApproval(input: {
  tool: string;
  arguments: Record<string, unknown>;
  principalId: string | number | null;
  tenantId?: string | null;
  now: Date;
  /** 0 or less: never expires. */
  ttlMinutes: number;
}): NewApproval {
  const token = generateApprovalToken();
  return {
    token,
    record: {
      approval_id: randomUUID(),
      run_id: randomUUID(),
      step_name: APPROVAL_STEP_NAME,
      status: 'pending',
      run_status: 'paused',
      token_hash: hashApprovalToken(token),
      created_at: input.now,
      expires_at: input.ttlMinutes > 0 ? new Date(input.now.getTime() + input.ttlMinutes * 60_000) : null,
      decided_at: null,
      actor: null,
      tool: input.tool,
      arguments: input.arguments,
      principal_id: input.principalId === null ? null : String(input.principalId),
      tenant_id: input.tenantId ?? null,
    },
  };
}

export function isExpired(record: ApprovalRecord, now: Date): boolean {
  return record.status === 'expired' || (record.status === 'pending' && record.expires_at !== null && record.expires_at <= now);
}

export type DecisionOutcome =
  /** This call made the decision: the caller (and only it) runs or discards the parked call. */
  | { kind: 'decided'; record: ApprovalRecord }
  /** The same decision was made before: success, nothing runs again. */
  | { kind: 'already'; record: ApprovalRecord }
  /** The opposite decision was made before. */
  | { kind: 'conflict'; record: ApprovalRecord }
  | { kind: 'expired' }
  | { kind: 'unknown' };

/**
 * The approval state machine: pending -> approved | rejected, or expired once past `expires_at`.
 * Stores apply it atomically (a conditional update), so concurrent decisions on one token yield
 * exactly one `decided`.
 */
export function decideApproval(
  record: ApprovalRecord | null | undefined,
  decision: ApprovalDecision,
  actor: ApprovalActor,
  now: Date,
): DecisionOutcome {
  if (!record) return { kind: 'unknown' };
  if (record.status === decision) return { kind: 'already', record };
  if (record.status === 'approved' || record.status === 'rejected') return { kind: 'conflict', record };
  if (isExpired(record, now)) return { kind: 'expired' };
  return {
    kind: 'decided',
    record: {
      ...record,
      status: decision,
      run_status: decision === 'approved' ? 'running' : 'failed',
      decided_at: now,
      actor,
    },
  };
}

/**
 * The acting user of a decision: flat scalar entries a client sent under `actor`, overridden by the
 * server-derived principal and channel (a client can describe itself, never impersonate).
 */
export function approvalActor(clientActor: unknown, principalId: string | null, via: string): ApprovalActor {
  const actor: ApprovalActor = {};
  if (clientActor !== null && typeof clientActor === 'object' && !Array.isArray(clientActor)) {
    for (const [k, v] of Object.entries(clientActor)) {
      if (k === '__proto__') continue;
      if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) actor[k] = v as string | number | boolean | null;
    }
  }
  return { ...actor, principal_id: principalId, via };
}

/** The message the model gets instead of the tool's result (no token in it). */
export function approvalRequiredMessage(record: ApprovalRecord): string {
  const expiry = record.expires_at ? ` (expires ${record.expires_at.toISOString()})` : '';
  return `This action requires human approval. Reference: ${record.run_id}${expiry}.`;
}
