import { DEFAULT_CLASSIFIER } from '../screen/classifier/default-classifier';
import { DEFAULT_SCREEN_RULES } from '../screen/default-rules';
import { GuardrailsSettings } from './setting-types';

/**
 * File defaults: every control on and enforcing except HITL (off until a host wires approvals),
 * failing closed. Base64 decoding is on because this implementation has it (the original's flag was
 * a no-op); destructive tools match by substring because the default names are verbs.
 */
export const DEFAULT_SETTINGS: Readonly<GuardrailsSettings> = Object.freeze({
  'tool_firewall.enabled': true,
  'tool_firewall.reject_unknown_arguments': false,
  'tool_firewall.owner_keys': ['user_id', 'owner_id', 'account_id', 'customer_id'],
  'input_screen.enabled': true,
  'input_screen.patterns': DEFAULT_SCREEN_RULES,
  'input_screen.refusal_message': 'I can’t help with that request.',
  'input_screen.classifier_enabled': true,
  // Calibrated when the model was trained (out-of-fold false positives on its training data).
  'input_screen.classifier_threshold': DEFAULT_CLASSIFIER.threshold,
  'indirect_injection.enabled': true,
  'indirect_injection.flagged_content': 'exclude',
  'output_handler.enabled': true,
  'output_handler.sanitize_html': true,
  'output_handler.neutralize_markdown': true,
  'output_handler.redact_pii': true,
  'output_handler.html_mode': 'escape',
  'hitl.enabled': false,
  'hitl.destructive_tools': ['refund', 'delete', 'send_email'],
  'hitl.fallback': 'deny',
  'normalization.enabled': true,
  'normalization.nfkc': true,
  'normalization.strip_zero_width': true,
  'normalization.casefold': true,
  'normalization.decode_base64_blobs': true,
  'normalization.fold_confusables': true,
  'normalization.max_prompt_length': 50000,
  'tool_authorization.enabled': true,
  'tool_authorization.owner_key_depth': 'recursive',
  'tool_authorization.destructive_match': 'substring',
  'retention.days': 365,
  'retention.strategy': 'anonymize',
  'modes.tool_firewall': 'enforce',
  'modes.input_screen': 'enforce',
  'modes.output_handler': 'enforce',
  'modes.hitl': 'enforce',
  'pattern_safety.on_match_error': 'closed',
  'audit_hygiene.prompt_storage': 'redact',
});
