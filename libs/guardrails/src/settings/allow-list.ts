import { GuardrailsSettings, SettingKey } from './setting-types';
import {
  booleanSetting,
  enumSetting,
  integerSetting,
  patternMapSetting,
  stringListSetting,
  textSetting,
  unitIntervalSetting,
  Validator,
} from './setting-validators';

const MODE = enumSetting('enforce', 'monitor', 'off');

/** The spec's table of overridable settings, each with its strict validator. */
export const SETTING_VALIDATORS: { readonly [K in SettingKey]: Validator<GuardrailsSettings[K]> } =
  Object.freeze({
    'tool_firewall.enabled': booleanSetting,
    'tool_firewall.reject_unknown_arguments': booleanSetting,
    'input_screen.enabled': booleanSetting,
    'output_handler.enabled': booleanSetting,
    'output_handler.sanitize_html': booleanSetting,
    'output_handler.neutralize_markdown': booleanSetting,
    'output_handler.redact_pii': booleanSetting,
    'hitl.enabled': booleanSetting,
    'normalization.enabled': booleanSetting,
    'normalization.nfkc': booleanSetting,
    'normalization.strip_zero_width': booleanSetting,
    'normalization.casefold': booleanSetting,
    'normalization.decode_base64_blobs': booleanSetting,
    'normalization.fold_confusables': booleanSetting,
    'tool_authorization.enabled': booleanSetting,
    'tool_firewall.owner_keys': stringListSetting,
    'hitl.destructive_tools': stringListSetting,
    'input_screen.patterns': patternMapSetting,
    'input_screen.refusal_message': textSetting(2000),
    // v1.x additions (additive): the trained classifier layer of the input screen.
    'input_screen.classifier_enabled': booleanSetting,
    'input_screen.classifier_threshold': unitIntervalSetting,
    // v1.x additions (additive): screening of indirect text (documents, tool results).
    'indirect_injection.enabled': booleanSetting,
    'indirect_injection.flagged_content': enumSetting('exclude', 'quote'),
    'normalization.max_prompt_length': integerSetting(1),
    'retention.days': integerSetting(0),
    'retention.strategy': enumSetting('anonymize', 'purge', 'keep'),
    'output_handler.html_mode': enumSetting('escape', 'allowlist'),
    'hitl.fallback': enumSetting('deny', 'pass'),
    'modes.tool_firewall': MODE,
    'modes.input_screen': MODE,
    'modes.output_handler': MODE,
    'modes.hitl': MODE,
    'pattern_safety.on_match_error': enumSetting('closed', 'open'),
    'tool_authorization.owner_key_depth': enumSetting('top_level', 'recursive'),
    'tool_authorization.destructive_match': enumSetting('exact', 'substring'),
    'audit_hygiene.prompt_storage': enumSetting('redact', 'hash', 'truncate', 'raw'),
  });

/** Exactly the keys a PUT may change; anything else in a body is dropped. */
export const SETTINGS_ALLOW_LIST: readonly SettingKey[] = Object.freeze(
  Object.keys(SETTING_VALIDATORS) as SettingKey[],
);

const STORE_GROUPS = ['audit', 'firewall_log', 'output_stats', 'settings', 'settings_audit', 'hitl_requests'];

/** Infrastructure keys: configuration only, read-only at runtime, silently dropped from a PUT. */
export const INFRASTRUCTURE_SETTING_KEYS: readonly string[] = Object.freeze(
  STORE_GROUPS.flatMap((group) => ['store', 'table', 'connection'].map((sub) => `${group}.${sub}`)),
);

export function isOverridableSetting(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTING_VALIDATORS, key);
}
