import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Guardrails, GuardrailsAuditError } from '@platform/guardrails';
import { ZodError } from 'zod';
import { KbError } from '../../errors/kb-errors';
import { OutputGuard } from '../../chat/output-guard';
import { KB_GUARDRAILS } from '../../guardrails/kb-guardrails.module';
import { McpAuditService, McpAuditUnavailable } from '../audit/mcp-audit.service';
import { McpCallOutcome } from '../audit/mcp-audit.repository';
import { McpServersService } from '../servers/mcp-servers.service';
import { KbToolCatalogue } from '../tools/kb-tool-catalogue';
import { KbTool, ToolNotFound } from '../tools/kb-tool';
import { McpCaller } from './mcp-caller';

const text = (value: unknown, isError = false): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError: true } : {}) });
const failure = (code: string, message: string, extra: Record<string, unknown> = {}) => text({ error: { code, message, ...extra } }, true);

const auditUnavailable = () => failure('audit_unavailable', 'The call could not be audited, so it was not run. Try again later.');

type Decision = { outcome: McpCallOutcome; reason: string | null; result: CallToolResult };

/**
 * One tools/call, in order: the tenant must allow the tool, the guardrails tool firewall must let
 * the arguments through (with the arguments it returns), then the tool runs. Every call is audited
 * once. An allowed call's row is written before the tool runs and completed after, so a call whose
 * audit cannot be written never runs (fail closed: an `audit_unavailable` tool error). A refusal or
 * failure is a tool error result the model can read.
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
  ) {}

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
      const ran = await this.run(caller, gate.tool, gate.arguments);
      await this.audit.finish(caller.tenantId, rowId, ran.outcome, ran.reason, Date.now() - started);
      return ran.result;
    } catch (e) {
      if (e instanceof McpAuditUnavailable) return auditUnavailable();
      throw e;
    }
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
        principalId: caller.userId ?? `mcp-token:${caller.tokenId}`,
      });
    } catch (e) {
      // The firewall could not log the call's violations: it does not run.
      if (e instanceof GuardrailsAuditError) return { outcome: 'denied', reason: 'firewall:audit_unavailable', result: auditUnavailable() };
      throw e;
    }
    if (check.outcome !== 'allowed') {
      const message = check.message ?? 'The tool firewall refused this call.';
      return { outcome: 'denied', reason: `firewall:${check.reason ?? check.outcome}`, result: failure('tool_call_refused', message, { violations: check.violations }) };
    }
    return { tool, arguments: check.arguments };
  }

  private async run(caller: McpCaller, tool: KbTool, args: Record<string, unknown>): Promise<Decision> {
    try {
      // A tool result is model-facing output: it passes the output guardrails like any answer.
      const { value } = await this.output.guard(await tool.run({ tenantId: caller.tenantId }, args));
      return { outcome: 'ok', reason: null, result: text(value) };
    } catch (e) {
      if (e instanceof ZodError) {
        const errors = Object.fromEntries(e.issues.map((i) => [i.path.join('.') || '_arguments', i.message]));
        return { outcome: 'error', reason: 'invalid_arguments', result: failure('invalid_arguments', 'The tool arguments are invalid.', { errors }) };
      }
      if (e instanceof ToolNotFound) return { outcome: 'error', reason: 'not_found', result: failure('not_found', e.message) };
      if (e instanceof KbError) return { outcome: 'error', reason: e.code, result: failure(e.code, e.message) };
      this.logger.error(e instanceof Error ? e.stack : String(e));
      return { outcome: 'error', reason: 'internal_error', result: failure('internal_error', 'The tool failed.') };
    }
  }
}
