import { ControlMode, GuardrailsSettings } from '../settings/setting-types';
import { JsonSchema } from '../shared/json-schema';
import { handleHtml, HtmlMode } from './html';
import { neutralizeMarkdown } from './markdown';
import { addOutputCounts, emptyOutputCounts, OutputCounts } from './output-counts';
import { PiiRedactionOptions, redactPii } from './pii/pii-redactor';
import { StructuredOutput, validateStructuredOutput } from './structured-output';

/** The settings the output handler needs (a slice of the effective settings). */
export interface OutputSettings {
  enabled: boolean;
  mode: ControlMode;
  sanitize_html: boolean;
  neutralize_markdown: boolean;
  redact_pii: boolean;
  html_mode: HtmlMode;
}

export function outputSettingsOf(s: GuardrailsSettings): OutputSettings {
  return {
    enabled: s['output_handler.enabled'],
    mode: s['modes.output_handler'],
    sanitize_html: s['output_handler.sanitize_html'],
    neutralize_markdown: s['output_handler.neutralize_markdown'],
    redact_pii: s['output_handler.redact_pii'],
    html_mode: s['output_handler.html_mode'],
  };
}

/** Configuration that is not a runtime setting. */
export interface OutputOptions {
  /** Hosts whose links and images model output may keep. */
  trustedHosts?: readonly string[];
  pii?: PiiRedactionOptions;
}

export interface TextHandling {
  text: string;
  counts: OutputCounts;
}

/** HTML handling, then markdown neutralization, then PII redaction (the /try/sanitize pipeline). */
export function sanitizeOutputText(text: string, s: OutputSettings, options: OutputOptions = {}): TextHandling {
  const trustedHosts = options.trustedHosts ?? [];
  const counts = emptyOutputCounts();
  let out = text;
  if (s.sanitize_html) {
    const html = handleHtml(out, s.html_mode, trustedHosts);
    out = html.text;
    if (html.stripped) counts.html_stripped = 1;
  }
  if (s.neutralize_markdown) {
    // Raw HTML is the HTML step's job when it ran; otherwise the markdown step escapes tags.
    const md = neutralizeMarkdown(out, { trustedHosts, escapeRawHtml: !s.sanitize_html });
    out = md.text;
    if (md.neutralized > 0) counts.markdown_sanitized = 1;
  }
  if (s.redact_pii) {
    const pii = redactPii(out, options.pii);
    out = pii.text;
    counts.pii_redaction = pii.count;
    counts.pii.by_detector = pii.byDetector;
  }
  return { text: out, counts };
}

/** Redacts PII in every string of a structured value (keys included), counting as it goes. */
function redactValue(value: unknown, options: OutputOptions, counts: OutputCounts, depth = 0): unknown {
  if (depth > 64) return value;
  const redactString = (s: string) => {
    const r = redactPii(s, options.pii);
    counts.pii_redaction += r.count;
    for (const [d, n] of Object.entries(r.byDetector)) counts.pii.by_detector[d] = (counts.pii.by_detector[d] ?? 0) + n;
    return r.text;
  };
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, options, counts, depth + 1));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [redactString(k), redactValue(v, options, counts, depth + 1)]),
    );
  }
  return value;
}

export interface OutputResult {
  /** False when the handler is disabled or off: the output passed untouched and uncounted. */
  handled: boolean;
  /** Whether `text` is the handled version (enforce) or the original (monitor). */
  enforced: boolean;
  /** What to deliver. */
  text: string;
  /** For structured output: the parsed value (PII-redacted when enforcing), and its validity. */
  structured?: StructuredOutput;
  counts: OutputCounts;
}

/**
 * Handles model output. Text goes through the sanitizing pipeline. With a JSON schema the output is
 * structured: it is validated as produced (a failure is counted; the caller decides whether to
 * retry or refuse) and PII is redacted inside its strings; HTML and markdown handling are left to
 * whoever renders those strings. In monitor mode everything is counted but the original is returned.
 */
export function handleModelOutput(
  output: string,
  s: OutputSettings,
  options: OutputOptions & { schema?: JsonSchema } = {},
): OutputResult {
  if (!s.enabled || s.mode === 'off') return { handled: false, enforced: false, text: output, counts: emptyOutputCounts() };
  const enforced = s.mode === 'enforce';
  if (!options.schema) {
    const handled = sanitizeOutputText(output, s, options);
    return { handled: true, enforced, text: enforced ? handled.text : output, counts: handled.counts };
  }
  const counts = emptyOutputCounts();
  const structured = validateStructuredOutput(output, options.schema);
  if (!structured.valid) counts.structured_validation_failure = 1;
  const value = s.redact_pii ? redactValue(structured.value, options, counts) : structured.value;
  if (!enforced) return { handled: true, enforced, text: output, structured, counts };
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return { handled: true, enforced, text, structured: { ...structured, value }, counts };
}

export interface OutputFieldsResult<T> {
  handled: boolean;
  enforced: boolean;
  /** The value with every named field handled (enforce), or the value as given (monitor, off). */
  value: T;
  /** One output's counts: HTML and markdown at most once, PII redactions summed over the fields. */
  counts: OutputCounts;
}

/**
 * Handles the text fields of a structured answer as one output: every string under a key named in
 * `fields` (at any depth beneath it) goes through the same pipeline as `handleModelOutput`'s text;
 * other keys (ids, paths, codes) are left as they are. So an answer's text, its citations' titles
 * and snippets and a tool result's content are sanitized by one function, never by copies.
 */
export function handleOutputFields<T>(value: T, fields: ReadonlySet<string>, s: OutputSettings, options: OutputOptions = {}): OutputFieldsResult<T> {
  let counts = emptyOutputCounts();
  const handle = (text: string): string => {
    const r = handleModelOutput(text, s, options);
    counts = addOutputCounts(counts, r.counts);
    return r.text;
  };
  const walk = (v: unknown, inField: boolean, depth: number): unknown => {
    if (typeof v === 'string') return inField ? handle(v) : v;
    // A timestamp is no text, and walking its (no) own properties would answer `{}` in its place.
    if (depth > 64 || v === null || typeof v !== 'object' || v instanceof Date) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, inField, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, inField || fields.has(k), depth + 1)]));
  };
  if (!s.enabled || s.mode === 'off') return { handled: false, enforced: false, value, counts };
  const handled = walk(value, false, 0) as T;
  counts.html_stripped = Math.min(1, counts.html_stripped);
  counts.markdown_sanitized = Math.min(1, counts.markdown_sanitized);
  const enforced = s.mode === 'enforce';
  return { handled: true, enforced, value: enforced ? handled : value, counts };
}
