import { IsObject } from 'class-validator';

export class PatchChatPreferencesDto {
  /** `{key: true|false|null}`; null removes the key. Keys and caps are checked by the service. */
  @IsObject()
  preferences!: Record<string, unknown>;
}
