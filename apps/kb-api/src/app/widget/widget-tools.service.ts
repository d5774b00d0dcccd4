import { Inject, Injectable } from '@nestjs/common';
import { Guardrails, ToolCallResult } from '@platform/guardrails';
import { failClosed } from '../chat/chat.service';
import { OutputGuard } from '../chat/output-guard';
import { KB_GUARDRAILS } from '../guardrails/kb-guardrails.module';
import { RetrievalService } from '../retrieval/retrieval.service';
import { BACKEND_TOOLS, BackendToolName, KB_SEARCH_TOOL } from './widget-catalog';

const DEFAULT_SEARCH_LIMIT = 5;

export type ToolRun =
  | { outcome: 'executed'; arguments: Record<string, unknown>; result: Record<string, unknown> }
  | { outcome: 'refused'; arguments: Record<string, unknown>; reason: string; violations: Record<string, string>; message: string };

/**
 * Backend tools the widget may run for a session. Every call goes through the guardrails tool
 * firewall first; a refused or parked call is reported, never executed.
 */
@Injectable()
export class WidgetToolsService {
  constructor(
    private readonly retrieval: RetrievalService,
    @Inject(KB_GUARDRAILS) private readonly guardrails: Guardrails,
    private readonly output: OutputGuard,
  ) {}

  async run(tool: BackendToolName, args: Record<string, unknown>, scope: { tenantId: string; projectKey: string; principalId: string | null }): Promise<ToolRun> {
    const verdict: ToolCallResult = await this.guardrails.checkToolCall({ tool: BACKEND_TOOLS[tool], arguments: args, principalId: scope.principalId }).catch(failClosed);
    if (verdict.outcome !== 'allowed') {
      return {
        outcome: 'refused',
        arguments: verdict.arguments,
        reason: verdict.outcome === 'parked' ? 'approval_required' : verdict.reason ?? 'rejected',
        violations: verdict.violations,
        message: verdict.outcome === 'parked' ? 'This tool needs a human approval and was not run.' : verdict.message ?? 'The tool firewall refused this call.',
      };
    }
    // Results quote the documents: they pass the output guardrails like a chat answer.
    const { value } = await this.output.guard(await this.search(verdict.arguments, scope));
    return { outcome: 'executed', arguments: verdict.arguments, result: value };
  }

  /** kb_search: the project's best chunks, one line each (the widget shows them as links). */
  private async search(args: Record<string, unknown>, scope: { tenantId: string; projectKey: string }) {
    const query = String(args['query']);
    const limit = typeof args['limit'] === 'number' ? args['limit'] : DEFAULT_SEARCH_LIMIT;
    const found = await this.retrieval.retrieve(scope.tenantId, query, { project_keys: [scope.projectKey] });
    const results = found.primary.slice(0, limit).map((c) => ({
      document_id: c.document_id,
      title: c.title || 'Untitled',
      source_path: c.source_path,
      heading: c.heading_path,
      snippet: c.text.replace(/\s+/g, ' ').slice(0, 240),
      score: c.score,
    }));
    return { tool: KB_SEARCH_TOOL.name, query, results };
  }
}
