import { redactPii } from '@platform/guardrails';

/** Masks personal data in every string of a JSON value (keys included), so recorded steps never hold it. */
export function maskPii(value: unknown): unknown {
  if (typeof value === 'string') return redactPii(value).text;
  if (Array.isArray(value)) return value.map(maskPii);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactPii(k).text, maskPii(v)]));
  }
  return value;
}
