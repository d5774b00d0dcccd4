import { ControlMode, GuardrailsSettings } from '../settings/setting-types';
import { argumentViolations } from './argument-check';
import { isDestructiveTool } from './destructive-tools';
import { scopeOwnerKeys } from './owner-keys';
import { declaredProperties, ToolCall } from './tool-definition';

/** The settings a tool call needs (a slice of the effective settings). */
export interface FirewallSettings {
  firewallEnabled: boolean;
  firewallMode: ControlMode;
  ownerKeys: readonly string[];
  rejectUnknownArguments: boolean;
  authorizationEnabled: boolean;
  ownerKeyDepth: 'top_level' | 'recursive';
  hitlEnabled: boolean;
  hitlMode: ControlMode;
  destructiveTools: readonly string[];
  destructiveMatch: 'exact' | 'substring';
}

export function firewallSettingsOf(s: GuardrailsSettings): FirewallSettings {
  return {
    firewallEnabled: s['tool_firewall.enabled'],
    firewallMode: s['modes.tool_firewall'],
    ownerKeys: s['tool_firewall.owner_keys'],
    rejectUnknownArguments: s['tool_firewall.reject_unknown_arguments'],
    authorizationEnabled: s['tool_authorization.enabled'],
    ownerKeyDepth: s['tool_authorization.owner_key_depth'],
    hitlEnabled: s['hitl.enabled'],
    hitlMode: s['modes.hitl'],
    destructiveTools: s['hitl.destructive_tools'],
    destructiveMatch: s['tool_authorization.destructive_match'],
  };
}

export type ToolCallVerdict = 'allowed' | 'rejected' | 'needs_approval';

export interface ToolCallDecision {
  verdict: ToolCallVerdict;
  /** The arguments that would run: owner keys scoped, unknown keys stripped (when enforcing). */
  arguments: Record<string, unknown>;
  /** argument -> reason; in monitor mode recorded while the call still proceeds. */
  violations: Record<string, string>;
  /** Undeclared arguments removed (or, in monitor mode, that would have been). */
  stripped: string[];
  reason: 'invalid_arguments' | 'owner_unavailable' | null;
  /** Whether violations refuse the call (false when the firewall only monitors). */
  enforced: boolean;
  /** Matches hitl.destructive_tools while HITL is on (parked when enforcing, recorded when monitoring). */
  destructive: boolean;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Decides a tool call, without side effects. Order: unknown arguments (stripped, or violations when
 * `reject_unknown_arguments`), owner keys overwritten with the caller (tool authorization; an owner
 * key without an authenticated caller refuses the call in any mode), schema validation, then the
 * destructive-tool check. Firewall violations refuse the call in enforce mode and are only recorded
 * in monitor mode, where the arguments also pass unstripped.
 */
export function decideToolCall(call: ToolCall, s: FirewallSettings): ToolCallDecision {
  const firewallOn = s.firewallEnabled && s.firewallMode !== 'off';
  const enforcing = firewallOn && s.firewallMode === 'enforce';
  const decision: ToolCallDecision = {
    verdict: 'allowed',
    arguments: {},
    violations: {},
    stripped: [],
    reason: null,
    enforced: enforcing,
    destructive: false,
  };
  const raw = call.arguments ?? {};
  if (!isPlainObject(raw)) {
    decision.violations['_arguments'] = 'Arguments must be an object.';
    decision.verdict = enforcing ? 'rejected' : 'allowed';
    decision.reason = 'invalid_arguments';
    return decision;
  }
  const properties = declaredProperties(call.tool);
  const unknown = Object.keys(raw).filter((k) => !Object.prototype.hasOwnProperty.call(properties, k));
  const declaredOnly = Object.fromEntries(Object.entries(raw).filter(([k]) => !unknown.includes(k)));
  let args: Record<string, unknown> = firewallOn && enforcing ? declaredOnly : { ...raw };
  if (firewallOn) {
    if (s.rejectUnknownArguments) {
      for (const k of unknown) decision.violations[k] = `Unknown argument [${k}] is not declared in the tool schema.`;
    } else {
      decision.stripped = unknown;
    }
  }

  let ownerViolations: Record<string, string> = {};
  if (s.authorizationEnabled) {
    const scoped = scopeOwnerKeys(args, properties, s.ownerKeys, call.principalId, s.ownerKeyDepth);
    args = scoped.arguments;
    ownerViolations = scoped.violations;
  }
  decision.arguments = args;

  if (firewallOn && call.tool.inputSchema) {
    const checked = enforcing ? args : Object.fromEntries(Object.entries(args).filter(([k]) => !unknown.includes(k)));
    for (const [k, reason] of Object.entries(argumentViolations(checked, call.tool.inputSchema))) {
      decision.violations[k] ??= reason;
    }
  }

  if (Object.keys(ownerViolations).length > 0) {
    Object.assign(decision.violations, ownerViolations);
    return { ...decision, verdict: 'rejected', reason: 'owner_unavailable', enforced: true };
  }
  if (Object.keys(decision.violations).length > 0) {
    decision.reason = 'invalid_arguments';
    if (enforcing) return { ...decision, verdict: 'rejected' };
  }

  const hitlOn = s.hitlEnabled && s.hitlMode !== 'off';
  decision.destructive = hitlOn && isDestructiveTool(call.tool.name, s.destructiveTools, s.destructiveMatch);
  if (decision.destructive && s.hitlMode === 'enforce') decision.verdict = 'needs_approval';
  return decision;
}
