/**
 * Output-handling actions, as the output stats report them. `pii_redaction` is the total number of
 * redactions and `pii.by_detector` breaks it down.
 */
export interface OutputCounts {
  html_stripped: number;
  markdown_sanitized: number;
  structured_validation_failure: number;
  pii_redaction: number;
  pii: { by_detector: Record<string, number> };
}

export function emptyOutputCounts(): OutputCounts {
  return { html_stripped: 0, markdown_sanitized: 0, structured_validation_failure: 0, pii_redaction: 0, pii: { by_detector: {} } };
}

export function addOutputCounts(a: OutputCounts, b: OutputCounts): OutputCounts {
  const byDetector = { ...a.pii.by_detector };
  for (const [detector, n] of Object.entries(b.pii.by_detector)) byDetector[detector] = (byDetector[detector] ?? 0) + n;
  return {
    html_stripped: a.html_stripped + b.html_stripped,
    markdown_sanitized: a.markdown_sanitized + b.markdown_sanitized,
    structured_validation_failure: a.structured_validation_failure + b.structured_validation_failure,
    pii_redaction: a.pii_redaction + b.pii_redaction,
    pii: { by_detector: byDetector },
  };
}

/** The four top-level kinds summed (the stats `total`). */
export function totalOf(c: OutputCounts): number {
  return c.html_stripped + c.markdown_sanitized + c.structured_validation_failure + c.pii_redaction;
}

export function isEmptyOutputCounts(c: OutputCounts): boolean {
  return totalOf(c) === 0;
}
