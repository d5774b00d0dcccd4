import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { MAX_CHAT_PREFERENCES } from '../chat-preferences.service';

/** The patch's schema (the service checks keys and values; swagger's option type has no propertyNames). */
const PREFERENCES_PATCH = {
  type: 'object',
  maxProperties: MAX_CHAT_PREFERENCES,
  propertyNames: { pattern: '^[a-z][a-z0-9_]{0,63}$' },
  additionalProperties: { oneOf: [{ type: 'boolean' }, { type: 'null' }] },
  description: `\`{key: true|false|null}\`; null removes the key. At most ${MAX_CHAT_PREFERENCES} preferences are stored; a bad key or value rejects the whole patch.`,
} as ApiPropertyOptions;

export class PatchChatPreferencesDto {
  /** `{key: true|false|null}`; null removes the key. Keys and caps are checked by the service. */
  @ApiProperty(PREFERENCES_PATCH)
  @IsObject()
  preferences!: Record<string, unknown>;
}
