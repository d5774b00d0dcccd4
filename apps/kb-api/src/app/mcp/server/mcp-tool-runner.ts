import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Guardrails, GuardrailsAuditError } from '@platform/guardrails';
import { KbError } from '../../errors/kb-errors';
import { OutputGuard } from '../../chat/output-guard';
import { IndirectInjectionScreen } from '../../guardrails/indirect-injection';
import { KB_GUARDRAILS } from '../../guardrails/kb-guardrails.module';
import { ParkedCallRow } from '../../tool-approvals/parked-calls.repository';
import { approvedButNotRun, ToolApprovalsService } from '../../tool-approvals/tool-approvals.service';
import { McpAuditService, McpAuditUnavailable } from '../audit/mcp-audit.service';
import { McpCallOutcome } from '../audit/mcp-audit.repository';
import { McpServersService } from '../servers/mcp-servers.service';
import { McpTokensService } from '../tokens/mcp-tokens.service';
import { KbToolCatalogue } from '../tools/kb-tool-catalogue';
import { InvalidToolArguments, KbTool, ToolNotFound } from '../tools/kb-tool';
import { McpCaller } from './mcp-caller';

const text = (value: unknown, isError = false): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError: true } : {}) });
const failure = (code: string, message: string, extra: Record<string, unknown> = {}) => text({ error: { code, message, ...extra } }, true);

const auditUnavailable = () => failure('audit_unavailable', 'The call could not be audited, so it was not run. Try again later.');

type Decision = { outcome: McpCallOutcome; reason: string | null; result: CallToolResult };
/** What a run produced, before it becomes a tool result: the value, or the error object. */
type Ran = { outcome: McpCallOutcome; reason: string | null; value: Record<string, unknown>; isError: boolean };

/** Where the caller of a parked call reads how it ended (same credentials as /mcp/kb). */
export const parkedCallPath = (approvalId: string) => `/mcp/kb/calls/${approvalId}`;

/**
 * One tools/call, in order: the tenant must allow the tool, the guardrails tool firewall must let
 * the arguments through (with the arguments it returns), then the tool runs. Every call is audited
 * once. An allowed call's row is written before the tool runs and completed after, so a call whose
 * audit cannot be written never runs (fail closed: an `audit_unavailable` tool error). A refusal or
 * failure is a tool error result the model can read.
 *
 * A result flows back into a model: it passes the output guardrails and then the indirect-injection
 * screen (a string carrying instructions aimed at the model is withheld or quoted as data). A call
 * the firewall parks for approval is handed to ToolApprovalsService (its approvers are notified);
 * the caller gets the approval id and where to read the outcome, and the approved call runs once in
 * the kb worker through `resume`.
 */
@Injectable()
export class McpToolRunner {
  private readonly logger = new Logger('McpToolRunner');

  constructor(
    private readonly catalogue: KbToolCatalogue,
    private readonly servers: McpServersService,
    private readonly audit: McpAuditService,
    @Inject(KB_GUARDRAILS) private readonly guardrails: Guardrails,
    private readonly output: OutputGuard,
    private readonly indirect: IndirectInjectionScreen,
    private readonly approvals: ToolApprovalsService,
    private readonly tokens: McpTokensService,
  ) {
    approvals.registerRunner('mcp', (row, args) => this.resume(row, args));
  }

  async call(caller: McpCaller, name: string, args: unknown): Promise<CallToolResult> {
    const started = Date.now();
    const entry = { tenantId: caller.tenantId, tokenId: caller.tokenId, userId: caller.userId, tool: name, arguments: args ?? {} };
    try {
      const gate = await this.admit(caller, name, args);
      if ('result' in gate) {
        await this.audit.record({ ...entry, outcome: gate.outcome, reason: gate.reason, durationMs: Date.now() - started });
        return gate.result;
      }
      // Written before the tool runs: if the process dies mid-call, the row still shows the call.
      const rowId = await this.audit.record({ ...entry, outcome: 'error', reason: 'incomplete', durationMs: 0 });
      const ran = await this.run(caller.tenantId, gate.tool, gate.arguments);
      await this.audit.finish(caller.tenantId, rowId, ran.outcome, ran.reason, Date.now() - started);
      return text(ran.value, ran.isError);
    } catch (e) {
      if (e instanceof McpAuditUnavailable) return auditUnavailable();
      throw e;
    }
  }

  /**
   * Runs a parked call a human approved (in the kb worker, once): audited like a live call, with
   * the caller it was parked for, through the same guardrails on its result.
   */
  async resume(row: ParkedCallRow, args: Record<string, unknown>): Promise<{ ok: boolean; result: Record<string, unknown> }> {
    const started = Date.now();
    const tool = this.catalogue.find(row.tool);
    if (!tool) return { ok: false, result: { error: { code: 'unknown_tool', message: `Tool ${row.tool} does not exist.` } } };
    const entry = { tenantId: row.tenant_id, tokenId: row.mcp_token_id === null ? null : String(row.mcp_token_id), userId: row.user_id === null ? null : String(row.user_id), tool: row.tool, arguments: args };
    // Revoking a token (or suspending the tenant, or deactivating the user who called) stops what it asked for too: a
    // call it parked does not run once approved.
    const refusal = (await this.approvals.callerRefusal(row)) ?? (entry.tokenId === null ? null : await this.tokens.refusalFor(row.tenant_id, entry.tokenId));
    if (refusal) {
      await this.audit.record({ ...entry, outcome: 'denied', reason: `approved:${refusal.code}`, durationMs: 0 });
      return approvedButNotRun(refusal);
    }
    const rowId = await this.audit.record({ ...entry, outcome: 'error', reason: 'incomplete', durationMs: 0 });
    const ran = await this.run(row.tenant_id, tool, args);
    await this.audit.finish(row.tenant_id, rowId, ran.outcome, ran.reason === null ? 'approved' : `approved:${ran.reason}`, Date.now() - started);
    return { ok: !ran.isError, result: ran.value };
  }

  /** The tenant's switch and the firewall; either a refusal to record or the tool and its arguments. */
  private async admit(caller: McpCaller, name: string, args: unknown): Promise<Decision | { tool: KbTool; arguments: Record<string, unknown> }> {
    const tool = this.catalogue.find(name);
    if (!tool) return { outcome: 'denied', reason: 'unknown_tool', result: failure('unknown_tool', `Tool ${name} does not exist.`) };
    if (!(await this.servers.enabledTools(caller.tenantId)).includes(tool)) {
      return { outcome: 'denied', reason: 'tool_disabled', result: failure('tool_disabled', `Tool ${name} is disabled for this tenant.`) };
    }
    let check;
    try {
      check = await this.guardrails.checkToolCall({
        tool: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
        arguments: args ?? {},
        principalId: principalOf(caller),
        tenantId: caller.tenantId,
      });
    } catch (e) {
      // The firewall could not log the call's violations: it does not run.
      if (e instanceof GuardrailsAuditError) return { outcome: 'denied', reason: 'firewall:audit_unavailable', result: auditUnavailable() };
      throw e;
    }
    if (check.outcome === 'parked' && check.approval) {
      const parked = await this.approvals.park({
        tenantId: caller.tenantId,
        channel: 'mcp',
        principalId: principalOf(caller),
        userId: caller.userId,
        mcpTokenId: caller.tokenId,
        widgetSessionId: null,
        tool: tool.name,
        arguments: check.arguments,
        parked: check.approval,
      });
      const message = `${check.message ?? parked.message} Read the outcome at GET ${parkedCallPath(parked.approval_id)} with the same credentials.`;
      return {
        outcome: 'denied',
        reason: 'approval_required',
        result: failure('approval_required', message, { approval_id: parked.approval_id, status: parked.status, expires_at: parked.expires_at, status_path: parkedCallPath(parked.approval_id) }),
      };
    }
    if (check.outcome !== 'allowed') {
      const message = check.message ?? 'The tool firewall refused this call.';
      return { outcome: 'denied', reason: `firewall:${check.reason ?? check.outcome}`, result: failure('tool_call_refused', message, { violations: check.violations }) };
    }
    return { tool, arguments: check.arguments };
  }

  private async run(tenantId: string, tool: KbTool, args: Record<string, unknown>): Promise<Ran> {
    const error = (reason: string, code: string, message: string, extra: Record<string, unknown> = {}): Ran => ({
      outcome: 'error',
      reason,
      value: { error: { code, message, ...extra } },
      isError: true,
    });
    try {
      // A tool result is model-facing output: it passes the output guardrails like any answer,
      const { value } = await this.output.guard(await tool.run({ tenantId }, args));
      // and, as text a model will read, the indirect-injection screen with the tool as its source.
      const screened = await this.indirect.screenToolResult(value as Record<string, unknown>, { tenantId, principalId: `tool:${tool.name}` });
      return { outcome: 'ok', reason: screened.flagged ? `indirect_injection:${screened.rule_ids.join(',')}` : null, value: screened.value, isError: false };
    } catch (e) {
      if (e instanceof InvalidToolArguments) return error('invalid_arguments', 'invalid_arguments', e.message, { errors: e.errors });
      if (e instanceof ToolNotFound) return error('not_found', 'not_found', e.message);
      if (e instanceof KbError) return error(e.code, e.code, e.message);
      if (e instanceof GuardrailsAuditError) return error('audit_unavailable', 'audit_unavailable', 'The call could not be audited, so it was not run. Try again later.');
      this.logger.error(e instanceof Error ? e.stack : String(e));
      return error('internal_error', 'internal_error', 'The tool failed.');
    }
  }
}

/** The firewall's principal of an MCP caller: the KB user, else the tenant MCP token. */
export function principalOf(caller: McpCaller): string {
  return caller.userId ?? `mcp-token:${caller.tokenId}`;
}
