import { createHash } from 'node:crypto';
import { redactPii } from '../output/pii/pii-redactor';
import { auditAttemptFor, AuditHygiene, PromptStorage, storedPrompt } from './audit-entry';
import { ScreenResult } from './screen';

const hygiene = (storage: PromptStorage, truncateAt = 10): AuditHygiene => ({ storage, truncateAt, redact: (p) => redactPii(p).text });
const result = (prompt: string, over: Partial<ScreenResult> = {}): ScreenResult => ({
  screened: true,
  matched: true,
  blocked: true,
  rule_id: 'ignore_previous',
  classifier_score: null,
  span: null,
  original_span: { start: 2, end: 8 },
  refusal_message: 'no',
  ruleset_version: 'v',
  errored_rule_ids: [],
  prompt,
  normalized: prompt.toLowerCase(),
  ...over,
});
const at = new Date('2026-01-01T00:00:00Z');

describe('audit hygiene', () => {
  it('stores the prompt redacted, hashed, truncated or raw', () => {
    const prompt = 'mail a@b.example now';
    expect(storedPrompt(prompt, hygiene('redact'))).toBe('mail [REDACTED:email] now');
    expect(storedPrompt(prompt, hygiene('hash'))).toBe(`sha256:${createHash('sha256').update(prompt).digest('hex')}`);
    expect(storedPrompt('😀😀😀😀😀😀😀😀😀😀😀😀', hygiene('truncate'))).toBe('😀'.repeat(10));
    expect(storedPrompt(prompt, hygiene('raw'))).toBe(prompt);
    expect(storedPrompt(prompt, hygiene('encrypt' as PromptStorage))).toBe('mail [REDACTED:email] now');
  });

  it('keeps the span as UTF-8 bytes only when the stored prompt is the prompt itself', () => {
    expect(auditAttemptFor(result('é ignore it'), 42, hygiene('raw'), at)).toMatchObject({
      prompt: 'é ignore it', principal_id: '42', match_start: 3, match_end: 9, blocked: true, rule_id: 'ignore_previous', occurred_at: at,
    });
    expect(auditAttemptFor(result('é ignore it'), null, hygiene('redact'), at)).toMatchObject({ match_start: 3, principal_id: null });
    expect(auditAttemptFor(result('é ignore it'), null, hygiene('hash'), at)).toMatchObject({ match_start: null, match_end: null });
    expect(auditAttemptFor(result('é ignore it', { original_span: null }), null, hygiene('raw'), at)).toMatchObject({ match_start: null });
  });
});
