import { StoredFirewallRejection, StoredInjectionAttempt, StoredSettingChange, toWellFormedText, codePointLength, firstCodePoints } from '@platform/guardrails';

const PREVIEW = 160;
const clip = (s: string, max: number) => (codePointLength(s) > max ? `${firstCodePoints(s, max)}…` : s);

/** Stored text may hold what invalid UTF-8 decoded to; it is scrubbed before JSON encoding. */
const text = (s: string) => toWellFormedText(s);

export function auditListItem(a: StoredInjectionAttempt) {
  const prompt = text(a.prompt);
  return {
    id: a.id,
    blocked: a.blocked,
    rule_id: a.rule_id,
    ruleset_version: a.ruleset_version,
    prompt_preview: clip(prompt.trim(), PREVIEW),
    prompt_length: codePointLength(prompt),
    errored: a.errored_rule_ids.length > 0,
    occurred_at: a.occurred_at.toISOString(),
    // v1.x additions: whose attempt it was, where the host knew it (a document is `document:<id>`).
    principal_id: a.principal_id,
    tenant_id: a.tenant_id ?? null,
  };
}

export function auditDetail(a: StoredInjectionAttempt) {
  const prompt = text(a.prompt);
  // The span is [start, end) in UTF-8 bytes of the stored prompt; scrubbing changes bytes, so drop it then.
  const span = a.match_start !== null && a.match_end !== null && prompt === a.prompt ? [a.match_start, a.match_end] : null;
  return {
    ...auditListItem(a),
    prompt,
    errored_rule_ids: a.errored_rule_ids,
    matched_span: span,
  };
}

export function firewallItem(r: StoredFirewallRejection) {
  const entries = Object.entries(r.violations);
  return {
    id: r.id,
    tool: clip(text(r.tool_description || r.tool_name), 200),
    tool_name: clip(text(r.tool_name), 200),
    principal_id: r.principal_id,
    violations: Object.fromEntries(entries.slice(0, 50).map(([k, v]) => [clip(text(k), 200), clip(text(String(v)), 500)])),
    violation_count: entries.length,
    enforced: r.enforced,
    occurred_at: r.occurred_at.toISOString(),
  };
}

export function settingChange(c: StoredSettingChange) {
  return { id: c.id, actor_id: c.actor_id, key: c.key, old_value: c.old_value, new_value: c.new_value, occurred_at: c.occurred_at.toISOString() };
}
