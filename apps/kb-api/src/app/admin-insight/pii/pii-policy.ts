import { DEFAULT_PII_DETECTORS, findPii } from '@platform/guardrails';

export const PII_ACTIONS = ['keep', 'mask', 'tokenize'] as const;
export type PiiAction = (typeof PII_ACTIONS)[number];

/** The guardrails library's detectors, by name: the strategy has one action per detector. */
export const PII_DETECTORS: readonly string[] = DEFAULT_PII_DETECTORS.map((d) => d.name);
export type PiiActions = Record<string, PiiAction>;

/** Nothing configured: mask everything, so a fresh tenant never stores personal data in its logs. */
export const DEFAULT_PII_ACTION: PiiAction = 'mask';
export const DEFAULT_DETOKENIZE_PERMISSION = 'pii.detokenize';

export function completeActions(actions: Partial<PiiActions> = {}): PiiActions {
  return Object.fromEntries(PII_DETECTORS.map((d) => [d, actions[d] ?? DEFAULT_PII_ACTION]));
}

export interface PiiToken {
  id: string;
  detector: string;
  value: string;
}

export interface ProtectedText {
  text: string;
  /** Findings per detector, whatever their action (kept values count too). */
  hits: Record<string, number>;
  tokens: PiiToken[];
}

/** `[PII:<detector>:<uuid>]`: the placeholder a tokenized value leaves in the stored text. */
export const tokenPlaceholder = (t: Pick<PiiToken, 'id' | 'detector'>) =>
  `[PII:${t.detector}:${t.id}]`;
export const TOKEN_PLACEHOLDER =
  /\[PII:[a-z0-9_]{1,40}:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\]/g;
/** The same text as the guardrails redactor's mask strategy writes. */
export const maskPlaceholder = (detector: string) => `[REDACTED:${detector}]`;

/** Applies the per-detector actions to one text; tokenized values come back for encryption at rest. */
export function protectText(text: string, actions: PiiActions, newId: () => string): ProtectedText {
  const findings = findPii(text);
  const hits: Record<string, number> = {};
  const tokens: PiiToken[] = [];
  let out = '';
  let at = 0;
  for (const f of findings) {
    hits[f.detector] = (hits[f.detector] ?? 0) + 1;
    const action = actions[f.detector] ?? DEFAULT_PII_ACTION;
    if (action === 'keep') continue;
    const value = text.slice(f.start, f.end);
    let replacement = maskPlaceholder(f.detector);
    if (action === 'tokenize') {
      const token = { id: newId(), detector: f.detector, value };
      tokens.push(token);
      replacement = tokenPlaceholder(token);
    }
    out += text.slice(at, f.start) + replacement;
    at = f.end;
  }
  return { text: out + text.slice(at), hits, tokens };
}

/** Puts the original values back in place of the placeholders that have one; others stay. */
export function restoreText(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(
    TOKEN_PLACEHOLDER,
    (placeholder, id: string) => values.get(id) ?? placeholder,
  );
}

export function addHits(
  a: Record<string, number>,
  b: Record<string, number>,
): Record<string, number> {
  const sum = { ...a };
  for (const [k, n] of Object.entries(b)) sum[k] = (sum[k] ?? 0) + n;
  return sum;
}
