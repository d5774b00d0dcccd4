import { ApiProperty } from '@nestjs/swagger';

export class ChatPreferenceDefaultsDto {
  @ApiProperty()
  counterfactual_enabled!: boolean;
}

/** The caller's chat preferences (switches by key) and the defaults of unset ones. */
export class ChatPreferencesViewDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'boolean' } })
  preferences!: Record<string, boolean>;

  @ApiProperty({ type: ChatPreferenceDefaultsDto })
  defaults!: ChatPreferenceDefaultsDto;
}
