import { createHash } from 'node:crypto';
import { InjectionAttempt } from '../ports/audit-store.port';
import { firstCodePoints, storableText } from '../shared/text';
import { ScreenResult } from './screen';
import { utf8Span } from './span-mapping';

export type PromptStorage = 'redact' | 'hash' | 'truncate' | 'raw';

export interface AuditHygiene {
  storage: PromptStorage;
  /** Code points kept by `truncate`. */
  truncateAt: number;
  /** The PII redactor used by `redact`. */
  redact: (prompt: string) => string;
}

/** The prompt as the audit may keep it. An unknown storage value falls back to redact, never raw. */
export function storedPrompt(prompt: string, hygiene: AuditHygiene): string {
  switch (hygiene.storage) {
    case 'raw':
      return prompt;
    case 'hash':
      return `sha256:${createHash('sha256').update(prompt, 'utf8').digest('hex')}`;
    case 'truncate':
      return firstCodePoints(prompt, hygiene.truncateAt);
    default:
      return hygiene.redact(prompt);
  }
}

/**
 * The audit row for one screen. The match span is kept as UTF-8 byte offsets into the stored prompt
 * only when the stored prompt is the prompt itself and the match maps back to it; otherwise null.
 */
export function auditAttemptFor(
  result: ScreenResult,
  principalId: string | number | null,
  hygiene: AuditHygiene,
  occurredAt: Date,
  tenantId: string | null = null,
): InjectionAttempt {
  // Scrubbed for storage; a scrub that changed the text drops the span like any other transform.
  const prompt = storableText(storedPrompt(result.prompt, hygiene));
  const span = prompt === result.prompt && result.original_span ? utf8Span(prompt, result.original_span) : null;
  return {
    prompt,
    blocked: result.blocked,
    rule_id: result.rule_id,
    principal_id: principalId === null ? null : storableText(String(principalId)),
    tenant_id: tenantId === null ? null : storableText(tenantId),
    ruleset_version: result.ruleset_version,
    errored_rule_ids: [...result.errored_rule_ids],
    match_start: span?.start ?? null,
    match_end: span?.end ?? null,
    occurred_at: occurredAt,
  };
}
