import { Inject, Injectable, Logger } from '@nestjs/common';
import { Guardrails, hashApprovalToken, isWellFormedApprovalToken, ParkedCall } from '@platform/guardrails';
import { KbError } from '../errors/kb-errors';
import { KB_GUARDRAILS } from '../guardrails/guardrails-token';
import { KbConfig } from '../../config/kb-config';
import { UsersRepository } from '../identity/users.repository';
import { NotificationsService } from '../notifications/notifications.service';
import { TenantsRepository } from '../tenancy/tenants.repository';
import { ParkedCallRow, ParkedCallsRepository, ParkedChannel, ParkedStatus } from './parked-calls.repository';

/** Who may approve a parked kb tool call: the tenant's holders of the destructive-commands permission. */
export const APPROVE_TOOL_PERMISSION = 'commands.destructive';

/** Runs an approved call of one channel (MCP or widget) and answers what its caller gets. */
export type ChannelRunner = (row: ParkedCallRow, args: Record<string, unknown>) => Promise<{ ok: boolean; result: Record<string, unknown> }>;

export interface ParkRequest {
  tenantId: string;
  channel: ParkedChannel;
  principalId: string;
  userId: string | null;
  mcpTokenId: string | null;
  widgetSessionId: string | null;
  tool: string;
  /** As the tool firewall scoped them: what the approver sees and what will run. */
  arguments: Record<string, unknown>;
  scope?: Record<string, unknown>;
  parked: ParkedCall;
}

/** What the caller of a parked call learns (never the token). */
export interface ParkedCallView {
  approval_id: string;
  tool: string;
  status: ParkedStatus;
  expires_at: string | null;
  /** The tool's result once it ran, or the error that ended the call; null while it waits. */
  result: Record<string, unknown> | null;
  message: string;
}

const MESSAGES: Record<ParkedStatus, string> = {
  pending: 'The call waits for a human approval; nothing has run yet.',
  running: 'The call was approved and is running.',
  succeeded: 'The call was approved and ran; its result is attached.',
  failed: 'The call was approved but failed; the error is attached.',
  rejected: 'A human rejected the call; it did not run and will not run.',
  expired: 'Nobody approved the call before its approval expired; it did not run and will not run.',
};

/** What the caller of an approved call gets when it was not run because its caller can no longer act. */
export const approvedButNotRun = (refusal: KbError) => ({
  ok: false,
  result: { error: { code: refusal.code, message: `The call was approved but not run: ${refusal.message}` } },
});

const view = (row: ParkedCallRow): ParkedCallView => ({
  approval_id: row.approval_id,
  tool: row.tool,
  status: row.status,
  expires_at: row.expires_at ? new Date(row.expires_at).toISOString() : null,
  result: row.result,
  message: MESSAGES[row.status],
});

/**
 * The kb side of the guardrails' human-in-the-loop: a tool call the firewall parked is recorded with
 * its caller, its single-use token reaches the tenant's approvers as a notification with approve and
 * reject links, a decision made here or at the guardrails admin API ends it once, and the caller
 * reads how it ended (or is notified). The approved call itself runs in the kb worker: every
 * decision dispatches it over the guardrails' approved-calls queue (job id = approval id), and the
 * claim pending → running below makes a second delivery a no-op, so it runs exactly once.
 */
@Injectable()
export class ToolApprovalsService {
  private readonly logger = new Logger('ToolApprovals');
  private readonly runners = new Map<ParkedChannel, ChannelRunner>();
  private readonly appUrl: string;

  constructor(
    private readonly calls: ParkedCallsRepository,
    private readonly notifications: NotificationsService,
    @Inject(KB_GUARDRAILS) private readonly guardrails: Guardrails,
    private readonly tenants: TenantsRepository,
    private readonly users: UsersRepository,
    config: KbConfig,
  ) {
    this.appUrl = config.appUrl;
  }

  registerRunner(channel: ParkedChannel, runner: ChannelRunner): void {
    this.runners.set(channel, runner);
  }

  /** Records a parked call and hands its token to the people allowed to approve it. */
  async park(r: ParkRequest): Promise<ParkedCallView> {
    const { parked } = r;
    await this.calls.insert({
      tenantId: r.tenantId,
      approvalId: parked.approval_id,
      runId: parked.run_id,
      tokenHash: hashApprovalToken(parked.token),
      channel: r.channel,
      tool: r.tool,
      arguments: r.arguments,
      scope: r.scope,
      principalId: r.principalId,
      userId: r.userId,
      mcpTokenId: r.mcpTokenId,
      widgetSessionId: r.widgetSessionId,
      expiresAt: parked.expires_at,
    });
    const approvePath = `/api/kb/tool-approvals/${parked.token}/approve`;
    const rejectPath = `/api/kb/tool-approvals/${parked.token}/reject`;
    // The notification is the token's only way to a human: the model and the caller never see it.
    await this.notifications.notify(r.tenantId, await this.notifications.holdersOf(r.tenantId, APPROVE_TOOL_PERMISSION), 'kb_tool_call_awaiting_approval', {
      approval_id: parked.approval_id,
      run_id: parked.run_id,
      channel: r.channel,
      tool: r.tool,
      arguments: r.arguments,
      requested_by: r.userId === null ? null : Number(r.userId),
      principal_id: r.principalId,
      expires_at: parked.expires_at?.toISOString() ?? null,
      token: parked.token,
      approve_path: approvePath,
      reject_path: rejectPath,
      approve_url: this.appUrl + approvePath,
      reject_url: this.appUrl + rejectPath,
    });
    return { approval_id: parked.approval_id, tool: r.tool, status: 'pending', expires_at: parked.expires_at?.toISOString() ?? null, result: null, message: MESSAGES.pending };
  }

  /** The caller's own parked call (same tenant and principal), brought up to date; null otherwise. */
  async status(tenantId: string, principalId: string, approvalId: string): Promise<ParkedCallView | null> {
    const row = await this.calls.byApproval(tenantId, approvalId);
    if (!row || row.principal_id !== principalId) return null;
    return view(await this.settle(row));
  }

  /**
   * A call a widget session parked, brought up to date; null for any other call. Anonymous widget
   * visitors share one principal, so the session (which the caller must be able to see) is what
   * makes the call theirs.
   */
  async statusInWidgetSession(tenantId: string, widgetSessionId: string, approvalId: string): Promise<ParkedCallView | null> {
    const row = await this.calls.byApproval(tenantId, approvalId);
    if (!row || row.channel !== 'widget' || row.widget_session_id !== widgetSessionId) return null;
    return view(await this.settle(row));
  }

  /** An approver's decision by token, in the approver's tenant (a token of another tenant is unknown here). */
  async decide(tenantId: string, userId: string, token: string, decision: 'approve' | 'reject') {
    const row = isWellFormedApprovalToken(token) ? await this.calls.byTokenHash(tenantId, hashApprovalToken(token)) : null;
    if (!row) throw new KbError(404, 'not_found', 'No parked tool call has this approval token.');
    const context = { principalId: userId, actor: { tenant_id: tenantId, via: 'kb-api' } };
    const outcome = decision === 'approve' ? await this.guardrails.approve(token, context) : await this.guardrails.reject(token, context);
    if (outcome.decision === 'unavailable') throw new KbError(503, 'hitl_unavailable', 'Approvals are unavailable right now.');
    if (outcome.decision === 'failed') {
      const now = await this.settle(row);
      throw new KbError(409, 'decision_failed', 'The approval is expired or was already decided the other way.', { status: now.status });
    }
    if (outcome.decision === 'rejected') {
      const ended = await this.end(row, 'rejected');
      return { status: 'rejected' as const, approval_id: row.approval_id, tool: row.tool, call_status: ended.status };
    }
    // Approved: the call is on the queue (or was, for a repeated approve); the worker runs it once.
    return { status: 'approved' as const, approval_id: row.approval_id, tool: row.tool, call_status: (await this.settle(row)).status };
  }

  /**
   * The worker's executor for every kb tool: claims the parked call and runs it through its
   * channel. A call already claimed (a redelivery) does not run again.
   */
  async runApproved(approvalId: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const state = await this.guardrails.approvalStatus(approvalId);
    if (!state?.tenant_id) throw new Error(`approval ${approvalId} has no kb tenant`);
    const row = await this.calls.claim(state.tenant_id, approvalId);
    if (!row) return { skipped: 'already_claimed' };
    const runner = this.runners.get(row.channel);
    let out: { ok: boolean; result: Record<string, unknown> };
    try {
      if (!runner) throw new Error(`no runner for channel ${row.channel}`);
      out = await runner(row, args);
    } catch (e) {
      this.logger.error(e instanceof Error ? e.stack : String(e));
      out = { ok: false, result: { error: { code: 'internal_error', message: 'The tool failed.' } } };
    }
    const ended = await this.calls.finish(row.tenant_id, approvalId, 'running', out.ok ? 'succeeded' : 'failed', out.result);
    if (ended) await this.tellCaller(ended);
    // A failure is recorded on the guardrails run too (run_status failed), never retried.
    if (!out.ok) throw new Error(`tool ${row.tool} failed`);
    return out.result;
  }

  /**
   * Why an approved call must not run although a human approved it, or null: it runs only while its
   * caller could still make the call live. The tenant must be active (a suspension stops what its
   * callers asked for), and a user who called for themselves (an iam token linked to them) must
   * still be an active user of the tenant. A call made with a tenant MCP token or through a widget
   * key acts for that credential, whose own state the channel's runner checks.
   */
  async callerRefusal(row: ParkedCallRow): Promise<KbError | null> {
    if ((await this.tenants.statusOf(row.tenant_id)) !== 'active') return new KbError(403, 'tenant_suspended', 'This tenant is suspended.');
    if (row.user_id !== null && row.mcp_token_id === null) {
      const user = await this.users.findById(String(row.user_id));
      if (!user?.active || user.tenant_id !== row.tenant_id) return new KbError(403, 'user_inactive', 'The user who asked for the call can no longer act in this tenant.');
    }
    return null;
  }

  /** A pending row follows the guardrails' record: a rejection made at the admin API, or an expiry, ends it here. */
  private async settle(row: ParkedCallRow): Promise<ParkedCallRow> {
    if (row.status !== 'pending') return row;
    const state = await this.guardrails.approvalStatus(row.approval_id);
    if (state?.status === 'rejected' || state?.status === 'expired') return this.end(row, state.status);
    return row;
  }

  private async end(row: ParkedCallRow, status: 'rejected' | 'expired'): Promise<ParkedCallRow> {
    const code = status === 'rejected' ? 'approval_rejected' : 'approval_expired';
    const ended = await this.calls.finish(row.tenant_id, row.approval_id, 'pending', status, { error: { code, message: MESSAGES[status] } });
    if (!ended) return (await this.calls.byApproval(row.tenant_id, row.approval_id)) ?? row;
    await this.tellCaller(ended);
    return ended;
  }

  /** The caller's user (when the call had one) learns how the call ended, without polling. */
  private async tellCaller(row: ParkedCallRow): Promise<void> {
    await this.notifications.notify(row.tenant_id, [row.user_id === null ? null : String(row.user_id)], 'kb_tool_call_finished', {
      approval_id: row.approval_id,
      channel: row.channel,
      tool: row.tool,
      status: row.status,
      result: row.result,
    });
  }
}
