import { decideToolCall, firewallSettingsOf, ToolCallDecision } from './firewall/tool-firewall';
import { ToolCall } from './firewall/tool-definition';
import { ApprovalActor, approvalActor } from './hitl/approval';
import { ApprovalResult, ApprovalService, ApprovalStatusView, ApprovedCall, ApprovedCallDispatcher, ParkedCall, PendingApprovalView, ToolExecutor } from './hitl/approval-service';
import { handleModelOutput, handleOutputFields, OutputFieldsResult, OutputResult, outputSettingsOf, sanitizeOutputText } from './output/output-handler';
import { PiiRedactionOptions, redactPii } from './output/pii/pii-redactor';
import { ApprovalSidecarStore, ApprovalStore } from './ports/approval-store.port';
import { AuditStore } from './ports/audit-store.port';
import { FirewallLog } from './ports/firewall-log.port';
import { Clock, systemClock } from './ports/keyset-page';
import { OutputStatsStore } from './ports/output-stats.port';
import { auditAttemptFor } from './screen/audit-entry';
import { BoundedMatcher } from './screen/bounded-matcher';
import { rulesetFor } from './screen/ruleset';
import { ScreenResult, screenPrompt, screenSettingsOf, screenVersion } from './screen/screen';
import { GuardrailsSettings } from './settings/setting-types';
import { JsonSchema } from './shared/json-schema';

/** Stores the library writes to; each is optional (no store: nothing recorded, HITL unavailable). */
export interface GuardrailsPorts {
  audit?: AuditStore;
  firewallLog?: FirewallLog;
  outputStats?: OutputStatsStore;
  approvals?: ApprovalStore;
  approvalSidecar?: ApprovalSidecarStore;
  clock?: Clock;
}

/** Configuration that is not a runtime setting. */
export interface GuardrailsOptions {
  /** Time budget for matching one prompt (default 50 ms); past it the rule fails. */
  matchTimeoutMs?: number;
  /** Time budget for compiling a ruleset in the matcher thread (default 2000 ms). */
  compileTimeoutMs?: number;
  /** Code points kept by audit_hygiene.prompt_storage = truncate (default 2000). */
  auditTruncateAt?: number;
  /** Lifetime of an approval token (default 1440 minutes; 0: never expires). */
  approvalTtlMinutes?: number;
  /** Hosts whose links and images model output may keep. */
  trustedHosts?: string[];
  pii?: PiiRedactionOptions;
  /**
   * A store write failed; the default reports a process warning. Output stats and sidecar writes
   * are best-effort. Audit and firewall-log writes are not: see GuardrailsAuditError.
   */
  onPortError?: (error: unknown, port: string) => void;
}

/**
 * The injection audit or the firewall log could not record a screen or a tool call. The library
 * fails closed: the prompt is not screened through and the tool call is not allowed, so no call
 * runs unaudited. Hosts answer it as "try again later" (503 or a tool error), never as a pass.
 */
export class GuardrailsAuditError extends Error {
  constructor(
    readonly port: 'audit' | 'firewall_log',
    cause: unknown,
  ) {
    super(`guardrails ${port} write failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'GuardrailsAuditError';
  }
}

export interface ScreenContext {
  principalId?: string | number | null;
  /** v1.x addition: recorded with the audit row, where the host knows it. */
  tenantId?: string | null;
  /**
   * `all` (default) audits every screen; `matches` only those where a rule or the classifier
   * matched. Indirect text (document chunks, tool results) is screened in bulk: its clean parts are
   * not attempts and would drown the audit.
   */
  record?: 'all' | 'matches';
}

export interface ScreenInputResult extends ScreenResult {
  /** Id of the audit row, when an audit store recorded the screen. */
  audit_id: number | null;
}

/** The /try/screen view: nothing persisted; `blocked` means a rule matched, whatever the mode. */
export interface SandboxScreen {
  blocked: boolean;
  rule_id: string | null;
  refusal_message: string | null;
  ruleset_version: string;
  /** v1.x addition: the classifier's score when it ran (no rule matched first), else null. */
  classifier_score: number | null;
}

export interface ToolCallResult {
  outcome: 'allowed' | 'rejected' | 'parked';
  /** The arguments to run the tool with (scoped and stripped). */
  arguments: Record<string, unknown>;
  violations: Record<string, string>;
  stripped: string[];
  reason: ToolCallDecision['reason'] | 'hitl_unavailable';
  /** What to tell the model when the call does not run now. */
  message: string | null;
  /** Set when parked: includes the approver's token (never show it to the model). */
  approval: ParkedCall | null;
  enforced: boolean;
  destructive: boolean;
}

export interface Guardrails {
  readonly settings: GuardrailsSettings;
  /** Applies new effective settings (e.g. after a SettingsChanged event). */
  updateSettings(next: GuardrailsSettings): void;
  readonly rulesetVersion: string;
  /** Rejects with GuardrailsAuditError when the audit store cannot record the screen. */
  screenInput(prompt: string, context?: ScreenContext): Promise<ScreenInputResult>;
  tryScreen(prompt: string): Promise<SandboxScreen>;
  /** Rejects with GuardrailsAuditError when a call with violations cannot be logged. */
  checkToolCall(call: ToolCall): Promise<ToolCallResult>;
  handleOutput(output: string, context?: { schema?: JsonSchema }): Promise<OutputResult>;
  /** A structured answer as one output: every string under a key in `fields` is handled (see handleOutputFields). */
  handleOutputFields<T>(value: T, fields: ReadonlySet<string>): Promise<OutputFieldsResult<T>>;
  trySanitize(text: string): { sanitized: string };
  registerExecutor(tool: string, executor: ToolExecutor): void;
  /** Where approved calls go when this process has no executor for the tool (e.g. the admin API). */
  setApprovedCallDispatcher(dispatcher: ApprovedCallDispatcher): void;
  /** Runs a call another process approved and dispatched here. */
  runApprovedCall(call: ApprovedCall): Promise<ApprovalResult>;
  approve(token: string, context: { principalId: string | null; actor?: unknown }): Promise<ApprovalResult>;
  reject(token: string, context: { principalId: string | null; actor?: unknown }): Promise<ApprovalResult>;
  listPendingApprovals(): Promise<PendingApprovalView[]>;
  /** How one parked run stands (expired computed with the clock); null when unknown. */
  approvalStatus(approvalId: string): Promise<ApprovalStatusView | null>;
  countPendingApprovals(): Promise<number>;
  readonly hitlAvailable: boolean;
  /** Starts the matcher thread and compiles the active rules ahead of the first prompt. */
  warmUp(): Promise<void>;
  close(): Promise<void>;
}

const HITL_UNAVAILABLE_MESSAGE = 'This action requires human approval, which is not available right now.';

/** The library's entry point: one instance per host process, fed the effective settings. */
export function createGuardrails(
  initialSettings: GuardrailsSettings,
  ports: GuardrailsPorts = {},
  options: GuardrailsOptions = {},
): Guardrails {
  let settings = initialSettings;
  const clock = ports.clock ?? systemClock;
  const onPortError =
    options.onPortError ??
    ((error: unknown, port: string) => process.emitWarning(`guardrails ${port} write failed: ${(error as Error)?.message ?? String(error)}`));
  const matcher = new BoundedMatcher({ timeoutMs: options.matchTimeoutMs, compileTimeoutMs: options.compileTimeoutMs });
  const approvals = new ApprovalService(ports.approvals, ports.approvalSidecar, clock, options.approvalTtlMinutes ?? 1440, onPortError);
  const redact = (text: string) => redactPii(text, options.pii).text;

  const bestEffort = async <T>(port: string, write: () => Promise<T>): Promise<T | null> => {
    try {
      return await write();
    } catch (e) {
      onPortError(e, port);
      return null;
    }
  };
  /** An audit write: reported like any port error, then raised so the caller fails closed. */
  const mustRecord = async <T>(port: 'audit' | 'firewall_log', write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (e) {
      onPortError(e, port);
      throw new GuardrailsAuditError(port, e);
    }
  };

  const activeRuleset = () => {
    const s = screenSettingsOf(settings);
    return rulesetFor(s.patterns, s.normalization.enabled && s.normalization.nfkc && s.normalization.casefold);
  };

  async function decide(token: string, decision: 'approved' | 'rejected', context: { principalId: string | null; actor?: unknown }) {
    const actor: ApprovalActor = approvalActor(context.actor, context.principalId, 'guardrails.api');
    return approvals.decide(token, decision, actor);
  }

  return {
    get settings() {
      return settings;
    },
    updateSettings(next) {
      const before = activeRuleset().version;
      settings = next;
      // Compile the new rules now, so the first prompt after a change does not pay for it.
      if (activeRuleset().version !== before) matcher.warmUp(activeRuleset()).catch((e: unknown) => onPortError(e, 'matcher_warm_up'));
    },
    get rulesetVersion() {
      return screenVersion(activeRuleset().version, screenSettingsOf(settings));
    },
    get hitlAvailable() {
      return approvals.available;
    },

    async screenInput(prompt, context = {}) {
      const principalId = context.principalId ?? null;
      const result = await screenPrompt(prompt, screenSettingsOf(settings), matcher);
      if (!result.screened || !ports.audit) return { ...result, audit_id: null };
      if (context.record === 'matches' && !result.matched) return { ...result, audit_id: null };
      const hygiene = { storage: settings['audit_hygiene.prompt_storage'], truncateAt: options.auditTruncateAt ?? 2000, redact };
      const attempt = auditAttemptFor(result, principalId, hygiene, clock.now(), context.tenantId ?? null);
      const stored = await mustRecord('audit', () => ports.audit!.append(attempt));
      return { ...result, audit_id: stored.id };
    },

    async tryScreen(prompt) {
      const result = await screenPrompt(prompt, screenSettingsOf(settings), matcher);
      return {
        blocked: result.matched,
        rule_id: result.rule_id,
        refusal_message: result.matched ? settings['input_screen.refusal_message'] : null,
        ruleset_version: result.ruleset_version,
        classifier_score: result.classifier_score,
      };
    },

    async checkToolCall(call) {
      const decision = decideToolCall(call, firewallSettingsOf(settings));
      const base: ToolCallResult = {
        outcome: decision.verdict === 'rejected' ? 'rejected' : 'allowed',
        arguments: decision.arguments,
        violations: decision.violations,
        stripped: decision.stripped,
        reason: decision.reason,
        message: null,
        approval: null,
        enforced: decision.enforced,
        destructive: decision.destructive,
      };
      if (Object.keys(decision.violations).length > 0 && ports.firewallLog) {
        await mustRecord('firewall_log', () =>
          ports.firewallLog!.append({
            tool_name: call.tool.name,
            tool_description: call.tool.description ?? call.tool.name,
            principal_id: call.principalId === null ? null : String(call.principalId),
            violations: decision.violations,
            enforced: decision.verdict === 'rejected',
            occurred_at: clock.now(),
          }),
        );
      }
      if (decision.verdict !== 'needs_approval') return base;
      try {
        const parked = await approvals.park(call.tool.name, decision.arguments, call.principalId, call.tenantId ?? null);
        return { ...base, outcome: 'parked', message: parked.message, approval: parked };
      } catch (e) {
        if (approvals.available) onPortError(e, 'hitl_approvals');
        if (settings['hitl.fallback'] === 'pass') return base;
        return { ...base, outcome: 'rejected', reason: 'hitl_unavailable', message: HITL_UNAVAILABLE_MESSAGE };
      }
    },

    async handleOutput(output, context = {}) {
      const result = handleModelOutput(output, outputSettingsOf(settings), { ...options, schema: context.schema });
      if (result.handled && ports.outputStats) {
        await bestEffort('output_stats', () => ports.outputStats!.record(result.counts, clock.now()));
      }
      return result;
    },

    async handleOutputFields(value, fields) {
      const result = handleOutputFields(value, fields, outputSettingsOf(settings), options);
      if (result.handled && ports.outputStats) {
        await bestEffort('output_stats', () => ports.outputStats!.record(result.counts, clock.now()));
      }
      return result;
    },

    trySanitize(text) {
      return { sanitized: sanitizeOutputText(text, outputSettingsOf(settings), options).text };
    },

    registerExecutor(tool, executor) {
      approvals.registerExecutor(tool, executor);
    },
    setApprovedCallDispatcher: (dispatcher) => approvals.setDispatcher(dispatcher),
    runApprovedCall: (call) => approvals.runDispatched(call),
    approve: (token, context) => decide(token, 'approved', context),
    reject: (token, context) => decide(token, 'rejected', context),
    listPendingApprovals: () => approvals.listPending(),
    approvalStatus: (approvalId) => approvals.status(approvalId),
    countPendingApprovals: () => approvals.countPending(),

    async warmUp() {
      await matcher.warmUp(activeRuleset());
    },
    close: () => matcher.close(),
  };
}
