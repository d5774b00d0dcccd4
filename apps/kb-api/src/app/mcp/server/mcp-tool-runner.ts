import { Inject, Injectable, Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Guardrails } from '@platform/guardrails';
import { ZodError } from 'zod';
import { KbError } from '../../errors/kb-errors';
import { KB_GUARDRAILS } from '../../guardrails/kb-guardrails.module';
import { McpAuditService } from '../audit/mcp-audit.service';
import { McpCallOutcome } from '../audit/mcp-audit.repository';
import { McpServersService } from '../servers/mcp-servers.service';
import { KbToolCatalogue } from '../tools/kb-tool-catalogue';
import { ToolNotFound } from '../tools/kb-tool';
import { McpCaller } from './mcp-caller';

const text = (value: unknown, isError = false): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError: true } : {}) });
const failure = (code: string, message: string, extra: Record<string, unknown> = {}) => text({ error: { code, message, ...extra } }, true);

/**
 * One tools/call, in order: the tenant must allow the tool, the guardrails tool firewall must let
 * the arguments through (with the arguments it returns), then the tool runs. Whatever happens, the
 * call is audited once; a refusal or failure is a tool error result the model can read.
 */
@Injectable()
export class McpToolRunner {
  private readonly logger = new Logger('McpToolRunner');

  constructor(
    private readonly catalogue: KbToolCatalogue,
    private readonly servers: McpServersService,
    private readonly audit: McpAuditService,
    @Inject(KB_GUARDRAILS) private readonly guardrails: Guardrails,
  ) {}

  async call(caller: McpCaller, name: string, args: unknown): Promise<CallToolResult> {
    const started = Date.now();
    const { outcome, reason, result } = await this.decide(caller, name, args);
    await this.audit.record({
      tenantId: caller.tenantId,
      tokenId: caller.tokenId,
      userId: caller.userId,
      tool: name,
      arguments: args ?? {},
      outcome,
      reason,
      durationMs: Date.now() - started,
    });
    return result;
  }

  private async decide(caller: McpCaller, name: string, args: unknown): Promise<{ outcome: McpCallOutcome; reason: string | null; result: CallToolResult }> {
    const tool = this.catalogue.find(name);
    if (!tool) return { outcome: 'denied', reason: 'unknown_tool', result: failure('unknown_tool', `Tool ${name} does not exist.`) };
    if (!(await this.servers.enabledTools(caller.tenantId)).includes(tool)) {
      return { outcome: 'denied', reason: 'tool_disabled', result: failure('tool_disabled', `Tool ${name} is disabled for this tenant.`) };
    }
    const check = await this.guardrails.checkToolCall({
      tool: { name: tool.name, description: tool.description, inputSchema: tool.inputSchema },
      arguments: args ?? {},
      principalId: caller.userId ?? `mcp-token:${caller.tokenId}`,
    });
    if (check.outcome !== 'allowed') {
      const message = check.message ?? 'The tool firewall refused this call.';
      return { outcome: 'denied', reason: `firewall:${check.reason ?? check.outcome}`, result: failure('tool_call_refused', message, { violations: check.violations }) };
    }
    try {
      return { outcome: 'ok', reason: null, result: text(await tool.run({ tenantId: caller.tenantId }, check.arguments)) };
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
