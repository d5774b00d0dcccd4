import { codePointLength } from '../shared/text';
import { GuardrailsSettings, ControlMode } from '../settings/setting-types';
import { BoundedMatcher } from './bounded-matcher';
import { DEFAULT_CLASSIFIER } from './classifier/default-classifier';
import { PromptClassifier } from './classifier/prompt-classifier';
import { normalizePrompt, NormalizationSettings } from './normalize';
import { rulesetFor } from './ruleset';
import { originalSpan, Span } from './span-mapping';
import { wellFormed } from './well-formed';

/** The settings one screen needs (a slice of the effective settings). */
export interface ScreenSettings {
  enabled: boolean;
  mode: ControlMode;
  patterns: Readonly<Record<string, string>>;
  refusal_message: string;
  max_prompt_length: number;
  on_match_error: 'closed' | 'open';
  normalization: NormalizationSettings;
  classifier_enabled: boolean;
  classifier_threshold: number;
}

export function screenSettingsOf(s: GuardrailsSettings): ScreenSettings {
  return {
    enabled: s['input_screen.enabled'],
    mode: s['modes.input_screen'],
    patterns: s['input_screen.patterns'],
    refusal_message: s['input_screen.refusal_message'],
    max_prompt_length: s['normalization.max_prompt_length'],
    on_match_error: s['pattern_safety.on_match_error'],
    classifier_enabled: s['input_screen.classifier_enabled'],
    classifier_threshold: s['input_screen.classifier_threshold'],
    normalization: {
      enabled: s['normalization.enabled'],
      nfkc: s['normalization.nfkc'],
      strip_zero_width: s['normalization.strip_zero_width'],
      casefold: s['normalization.casefold'],
      fold_confusables: s['normalization.fold_confusables'],
      decode_base64_blobs: s['normalization.decode_base64_blobs'],
    },
  };
}

export interface ScreenResult {
  /** False when screening is disabled or off: nothing was looked at. */
  screened: boolean;
  /** A rule matched, the prompt was too long, or a rule failed closed. */
  matched: boolean;
  /** The prompt must be refused: matched in enforce mode (monitor only records). */
  blocked: boolean;
  /**
   * The first matching rule in config order, `too_long`, `pattern_error:<rule_id>`, or
   * `classifier.<model version>` when no rule matched and the classifier's score reached the threshold.
   */
  rule_id: string | null;
  /** The classifier's score in [0, 1], when it ran (enabled, and no rule decided first). */
  classifier_score: number | null;
  /** The match in `normalized` (UTF-16 indices). */
  span: (Span & { text: string }) | null;
  /** The same match in `prompt`, when normalization can be traced back (else null). */
  original_span: Span | null;
  /** Set when blocked. */
  refusal_message: string | null;
  /** The rules' version, followed by `+<model version>` while the classifier is enabled. */
  ruleset_version: string;
  /** Rules that failed to run (time budget, exception); with on_match_error=open they were skipped. */
  errored_rule_ids: string[];
  /** The prompt as screened: well-formed (unpaired surrogates replaced by U+FFFD). */
  prompt: string;
  /** The normalized text the rules ran on (decoded base64 blobs appended). */
  normalized: string;
}

/** What decided a screen: the rules' version and, while it is enabled, the model's. */
export function screenVersion(rulesVersion: string, s: Pick<ScreenSettings, 'classifier_enabled'>, classifier: PromptClassifier = DEFAULT_CLASSIFIER): string {
  return s.classifier_enabled ? `${rulesVersion}+${classifier.id}` : rulesVersion;
}

/**
 * Screens a prompt: length limit on the raw prompt (code points), normalization, then the rules in
 * config order in the bounded matcher. The first match reports; a rule that fails (timeout,
 * exception) reports `pattern_error:<rule_id>` when failing closed, or is recorded in
 * `errored_rule_ids` and skipped when open. When no rule matched, the classifier scores the
 * normalized text: rules stay the explainable, exact layer, and the model catches the phrasings
 * no rule names.
 */
export async function screenPrompt(
  rawPrompt: string,
  s: ScreenSettings,
  matcher: BoundedMatcher,
  classifier: PromptClassifier = DEFAULT_CLASSIFIER,
): Promise<ScreenResult> {
  const prompt = wellFormed(rawPrompt);
  const casefolded = s.normalization.enabled && s.normalization.nfkc && s.normalization.casefold;
  const ruleset = rulesetFor(s.patterns, casefolded);
  const result: ScreenResult = {
    screened: false,
    matched: false,
    blocked: false,
    rule_id: null,
    classifier_score: null,
    span: null,
    original_span: null,
    refusal_message: null,
    ruleset_version: screenVersion(ruleset.version, s, classifier),
    errored_rule_ids: [],
    prompt,
    normalized: prompt,
  };
  if (!s.enabled || s.mode === 'off') return result;
  result.screened = true;
  const hit = (ruleId: string): ScreenResult => {
    result.matched = true;
    result.blocked = s.mode === 'enforce';
    result.rule_id = ruleId;
    result.refusal_message = result.blocked ? s.refusal_message : null;
    return result;
  };
  // Cheap bound first: a prompt never has more code points than UTF-16 units.
  if (prompt.length > s.max_prompt_length && codePointLength(prompt) > s.max_prompt_length) return hit('too_long');

  const normalized = normalizePrompt(prompt, s.normalization);
  result.normalized = normalized.text;
  const failClosed = s.on_match_error === 'closed';
  let from = 0;
  while (from < ruleset.rules.length) {
    const report = await matcher.run(ruleset, normalized.text, from, failClosed);
    for (const error of report.errors) {
      const ruleId = ruleset.rules[error.rule].id;
      result.errored_rule_ids.push(ruleId);
      if (failClosed) return hit(`pattern_error:${ruleId}`);
    }
    if (report.match) {
      const { rule, start, end } = report.match;
      result.span = { start, end, text: normalized.text.slice(start, end) };
      result.original_span = originalSpan(prompt, normalized.base, s.normalization, { start, end });
      return hit(ruleset.rules[rule].id);
    }
    if (report.resumeAt === null) break;
    from = report.resumeAt;
  }
  if (s.classifier_enabled) {
    result.classifier_score = await classifier.scoreInTurns(normalized.text);
    if (result.classifier_score >= s.classifier_threshold) return hit(`classifier.${classifier.id}`);
  }
  return result;
}
