import { Inject, Injectable } from '@nestjs/common';
import { Guardrails, ToolCallResult } from '@platform/guardrails';
import { failClosed } from '../chat/chat.service';
import { OutputGuard } from '../chat/output-guard';
import { IndirectInjectionScreen } from '../guardrails/indirect-injection';
import { KB_GUARDRAILS } from '../guardrails/kb-guardrails.module';
import { PRIMARY, RetrievalService } from '../retrieval/retrieval.service';
import { snippetOf } from '../retrieval/snippet';
import { ParkedCallRow } from '../tool-approvals/parked-calls.repository';
import { KbError } from '../errors/kb-errors';
import { approvedButNotRun, ToolApprovalsService } from '../tool-approvals/tool-approvals.service';
import { BACKEND_TOOLS, BackendToolName, KB_SEARCH_TOOL } from './widget-catalog';
import type { WidgetAuthMode } from './widget-key.strategy';
import { WidgetKeysRepository } from './widget-keys.repository';
import { WidgetSessionsRepository } from './widget-sessions.repository';

const DEFAULT_SEARCH_LIMIT = 5;

export type ToolRun =
  | { outcome: 'executed'; arguments: Record<string, unknown>; result: Record<string, unknown> }
  | {
      outcome: 'refused';
      arguments: Record<string, unknown>;
      reason: string;
      violations: Record<string, string>;
      message: string;
      /** Set when the call was parked for a human approval: its id (never the token). */
      approval_id?: string;
    };

/** How the widget's caller was let in, kept with a parked call so that its approval can be checked against the key later. */
export interface WidgetCallCredential {
  mode: WidgetAuthMode;
  /** The page's origin, when the call came from one (browser and token modes). */
  origin: string | null;
  /** The key's identity-credential version the call was made under (a user token is only good for it). */
  identityCredentialVersion: number;
}

interface WidgetScope {
  tenantId: string;
  projectKey: string;
  principalId: string | null;
  /** The session a call runs for; a parked call is read back through it. */
  sessionId?: string;
  credential?: WidgetCallCredential;
}

/**
 * Backend tools the widget may run for a session. Every call goes through the guardrails tool
 * firewall first; a refused call is reported, never executed. A parked call goes to
 * ToolApprovalsService (the tenant's approvers are notified) and, once approved, runs once in the
 * kb worker through `resume`. Results pass the output guardrails and the indirect-injection screen
 * before they flow back to the widget's model.
 */
@Injectable()
export class WidgetToolsService {
  constructor(
    private readonly retrieval: RetrievalService,
    @Inject(KB_GUARDRAILS) private readonly guardrails: Guardrails,
    private readonly output: OutputGuard,
    private readonly indirect: IndirectInjectionScreen,
    private readonly approvals: ToolApprovalsService,
    private readonly sessions: WidgetSessionsRepository,
    private readonly keys: WidgetKeysRepository,
  ) {
    approvals.registerRunner('widget', (row, args) => this.resume(row, args));
  }

  async run(tool: BackendToolName, args: Record<string, unknown>, scope: WidgetScope): Promise<ToolRun> {
    const verdict: ToolCallResult = await this.guardrails
      .checkToolCall({ tool: BACKEND_TOOLS[tool], arguments: args, principalId: scope.principalId, tenantId: scope.tenantId })
      .catch(failClosed);
    if (verdict.outcome === 'parked' && verdict.approval) {
      const parked = await this.approvals.park({
        tenantId: scope.tenantId,
        channel: 'widget',
        principalId: scope.principalId ?? 'widget:anonymous',
        userId: null,
        mcpTokenId: null,
        widgetSessionId: scope.sessionId ?? null,
        tool,
        arguments: verdict.arguments,
        scope: { project_key: scope.projectKey, ...(scope.credential ? { credential: scope.credential } : {}) },
        parked: verdict.approval,
      });
      return {
        outcome: 'refused',
        arguments: verdict.arguments,
        reason: 'approval_required',
        violations: verdict.violations,
        message: `This tool needs a human approval and was not run yet (approval ${parked.approval_id}).`,
        approval_id: parked.approval_id,
      };
    }
    if (verdict.outcome !== 'allowed') {
      return {
        outcome: 'refused',
        arguments: verdict.arguments,
        reason: verdict.reason ?? 'rejected',
        violations: verdict.violations,
        message: verdict.message ?? 'The tool firewall refused this call.',
      };
    }
    return { outcome: 'executed', arguments: verdict.arguments, result: await this.execute(verdict.arguments, scope) };
  }

  /** A call the session parked, as it stands now (null for any other call). */
  parkedCall(tenantId: string, sessionId: string, approvalId: string) {
    return this.approvals.statusInWidgetSession(tenantId, sessionId, approvalId);
  }

  /** An approved parked call, in the kb worker: the same search and guardrails as a live call. */
  async resume(row: ParkedCallRow, args: Record<string, unknown>): Promise<{ ok: boolean; result: Record<string, unknown> }> {
    const refusal = (await this.approvals.callerRefusal(row)) ?? (await this.keyRefusal(row));
    if (refusal) return approvedButNotRun(refusal);
    const projectKey = typeof row.scope['project_key'] === 'string' ? row.scope['project_key'] : '';
    const result = await this.execute(args, { tenantId: row.tenant_id, projectKey, principalId: row.principal_id });
    return { ok: true, result };
  }

  /**
   * A widget call acts for its key: once the key is disabled or revoked (or its session is gone), or the credential it
   * came with would no longer be let in, nothing it parked runs, as nothing it asks for live does.
   */
  private async keyRefusal(row: ParkedCallRow): Promise<KbError | null> {
    const session = row.widget_session_id === null ? null : await this.sessions.findInTenant(row.tenant_id, String(row.widget_session_id));
    if (!session) return new KbError(403, 'widget_session_gone', 'The widget session that asked for the call no longer exists.');
    const key = await this.keys.find(row.tenant_id, session.key_id);
    if (!key?.active) return new KbError(403, 'widget_key_inactive', 'This widget key is disabled.');
    // As the live checks of a token or a page (widget-key.strategy.ts): a user token is good only while user
    // authentication stays on and the identity secret unrotated, and a page only while its origin is allowed.
    const credential = row.scope['credential'] as Partial<WidgetCallCredential> | undefined;
    if (credential?.mode === 'user_token' && (!key.user_auth_enabled || key.identity_credential_version !== credential.identityCredentialVersion)) {
      return new KbError(403, 'widget_credential_changed', "The widget's user authentication was turned off or its identity secret rotated.");
    }
    if (typeof credential?.origin === 'string' && !key.allowed_origins.includes(credential.origin)) {
      return new KbError(403, 'widget_origin_refused', 'The page the call came from is no longer an allowed origin of this widget key.');
    }
    return null;
  }

  private async execute(args: Record<string, unknown>, scope: WidgetScope): Promise<Record<string, unknown>> {
    // Results quote the documents: they pass the output guardrails like a chat answer,
    const { value } = await this.output.guard(await this.search(args, scope));
    // and the indirect-injection screen, as text the widget's model reads.
    const screened = await this.indirect.screenToolResult(value, { tenantId: scope.tenantId, principalId: `tool:${KB_SEARCH_TOOL.name}` }).catch(failClosed);
    return screened.value;
  }

  /** kb_search: the project's best chunks, one line each (the widget shows them as links). */
  private async search(args: Record<string, unknown>, scope: { tenantId: string; projectKey: string }) {
    const query = String(args['query']);
    const limit = typeof args['limit'] === 'number' ? args['limit'] : DEFAULT_SEARCH_LIMIT;
    // Only primary chunks are shown, so at most PRIMARY of the ranking are used (a limit of 9 or 10 shows 8).
    const found = await this.retrieval.retrieve(scope.tenantId, query, { project_keys: [scope.projectKey] }, { uses: Math.min(limit, PRIMARY) });
    const results = found.primary.slice(0, limit).map((c) => ({
      document_id: c.document_id,
      title: c.title || 'Untitled',
      source_path: c.source_path,
      heading: c.heading_path,
      snippet: snippetOf(c.text),
      score: c.score,
    }));
    return { tool: KB_SEARCH_TOOL.name, query, results };
  }
}
