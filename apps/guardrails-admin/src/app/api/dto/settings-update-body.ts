import { ApiProperty } from '@nestjs/swagger';
import { validateSettingsPatch } from '@platform/guardrails';
import { Validate, ValidationError, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import type { Refusal } from '../validated-input';

/**
 * What the guardrails settings registry refuses in a `settings` map, keyed as it keys them: a
 * dotted setting key per refused value, or `settings` for a map that is missing, empty or not an
 * object. Keys outside the allow-list are not refused here: the service drops them. The registry
 * is the one definition of a valid setting; this module only asks it.
 */
const registryErrors = (settings: unknown): Record<string, string[]> => {
  const patch = validateSettingsPatch({ settings });
  return patch.ok ? {} : patch.errors;
};

/** The 422 `data` of PUT /settings for the registry's errors: each under `settings.<dotted.key>`. */
export function settingsValidationFailed(errors: Record<string, string[]>): Refusal {
  const named = Object.fromEntries(Object.entries(errors).map(([key, messages]) => [key === 'settings' ? key : `settings.${key}`, messages]));
  return { error: 'validation_failed', message: 'some settings are invalid; nothing was stored', errors: named };
}

@ValidatorConstraint({ name: 'allowListedSettings' })
class AllowListedSettings implements ValidatorConstraintInterface {
  validate(settings: unknown): boolean {
    return Object.keys(registryErrors(settings)).length === 0;
  }

  /** A summary only: the answer carries the registry's own message for each setting (see settingsRefusal). */
  defaultMessage(): string {
    return 'must be a non-empty object of valid dotted setting keys';
  }
}

/** PUT /settings: overrides by dotted key, checked all or nothing by the settings registry. */
export class SettingsUpdateBody {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    minProperties: 1,
    description:
      'Dotted keys, e.g. {"modes.input_screen": "monitor"}. One invalid value refuses the whole body (a string anywhere in a value, keys included, must be valid UTF-8 text); keys that are not overridable are dropped and listed in data.dropped. input_screen.patterns keeps the order sent, which is the order its rules run in (the first match reports), so a rule id that is a whole number ("7"), which a JSON object cannot keep in place, is refused',
  })
  @Validate(AllowListedSettings)
  settings!: Record<string, unknown>;
}

/**
 * PUT /settings' 422: a class-validator constraint holds one message, while the registry may give
 * several per setting, so the refused map (`settings` is the body's only field) is spelled out by
 * the registry itself, every message under its own `settings.<dotted.key>`.
 */
export const settingsRefusal = (errors: ValidationError[]): Refusal =>
  settingsValidationFailed(Object.assign({}, ...errors.map((e) => registryErrors(e.value))));
