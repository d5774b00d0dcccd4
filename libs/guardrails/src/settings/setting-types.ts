/** How a control acts: enforce (blocks, rewrites), monitor (records only), off. */
export type ControlMode = 'enforce' | 'monitor' | 'off';

/** The four controls, in the order the overview lists them. */
export type ControlKey = 'tool_firewall' | 'input_screen' | 'output_handler' | 'hitl';

/**
 * Every runtime-overridable setting (the spec's allow-list), keyed by its dotted name. Flat keys keep
 * the validator table, the change log and the PUT body on one vocabulary; `nestSettings` gives the
 * nested view.
 */
export interface GuardrailsSettings {
  'tool_firewall.enabled': boolean;
  'tool_firewall.reject_unknown_arguments': boolean;
  'tool_firewall.owner_keys': string[];
  'input_screen.enabled': boolean;
  'input_screen.patterns': Record<string, string>;
  'input_screen.refusal_message': string;
  /** v1.x addition: the trained classifier runs after the rules (default on). */
  'input_screen.classifier_enabled': boolean;
  /** v1.x addition: score in [0, 1] at or above which the classifier blocks. */
  'input_screen.classifier_threshold': number;
  /**
   * v1.x addition: indirect text a model reads (documents at ingest, tool results) goes through the
   * input screen; what matches is flagged (default on).
   */
  'indirect_injection.enabled': boolean;
  /**
   * v1.x addition: what a host does with flagged content: leave it out of what a model reads
   * (`exclude`, default) or hand it over quoted as delimited, untrusted data (`quote`).
   */
  'indirect_injection.flagged_content': 'exclude' | 'quote';
  'output_handler.enabled': boolean;
  'output_handler.sanitize_html': boolean;
  'output_handler.neutralize_markdown': boolean;
  'output_handler.redact_pii': boolean;
  'output_handler.html_mode': 'escape' | 'allowlist';
  'hitl.enabled': boolean;
  'hitl.destructive_tools': string[];
  'hitl.fallback': 'deny' | 'pass';
  'normalization.enabled': boolean;
  'normalization.nfkc': boolean;
  'normalization.strip_zero_width': boolean;
  'normalization.casefold': boolean;
  'normalization.decode_base64_blobs': boolean;
  'normalization.fold_confusables': boolean;
  'normalization.max_prompt_length': number;
  'tool_authorization.enabled': boolean;
  'tool_authorization.owner_key_depth': 'top_level' | 'recursive';
  'tool_authorization.destructive_match': 'exact' | 'substring';
  'retention.days': number;
  'retention.strategy': 'anonymize' | 'purge' | 'keep';
  'modes.tool_firewall': ControlMode;
  'modes.input_screen': ControlMode;
  'modes.output_handler': ControlMode;
  'modes.hitl': ControlMode;
  'pattern_safety.on_match_error': 'closed' | 'open';
  'audit_hygiene.prompt_storage': 'redact' | 'hash' | 'truncate' | 'raw';
}

export type SettingKey = keyof GuardrailsSettings;

/** A validated subset of settings, as a PUT body or a stored override set carries it. */
export type SettingsOverrides = Partial<GuardrailsSettings>;
