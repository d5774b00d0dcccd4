import { Injectable } from '@nestjs/common';
import { KbValidationError } from '../errors/kb-errors';
import { ChatPreferences, ChatPreferencesRepository } from './chat-preferences.repository';

/** What an unset preference means. */
export const CHAT_PREFERENCE_DEFAULTS = { counterfactual_enabled: true } as const;
/** Unknown keys are accepted (the client may add toggles), within these caps. */
export const MAX_CHAT_PREFERENCES = 50;
const KEY = /^[a-z][a-z0-9_]{0,63}$/;

/** A user's chat toggles (booleans by key), kept apart from the account's display preferences. */
@Injectable()
export class ChatPreferencesService {
  constructor(private readonly preferences: ChatPreferencesRepository) {}

  async get(userId: string) {
    return { preferences: (await this.preferences.find(userId)) ?? {}, defaults: CHAT_PREFERENCE_DEFAULTS };
  }

  /** Merges the patch; a malformed key or value, or too many keys, rejects the whole patch. */
  async patch(userId: string, patch: Record<string, unknown>) {
    const errors: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(patch)) {
      if (!KEY.test(key)) errors[`preferences.${key}`] = ['A preference key is lower-case letters, digits and underscores (at most 64).'];
      else if (value !== null && typeof value !== 'boolean') errors[`preferences.${key}`] = ['A preference is true, false or null.'];
    }
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    const next = await this.preferences.update(userId, (current) => {
      const merged: ChatPreferences = { ...current };
      for (const [key, value] of Object.entries(patch)) {
        if (value === null) delete merged[key];
        else merged[key] = value as boolean;
      }
      if (Object.keys(merged).length > MAX_CHAT_PREFERENCES) throw new KbValidationError({ preferences: [`At most ${MAX_CHAT_PREFERENCES} chat preferences can be stored.`] });
      return merged;
    });
    return { preferences: next, defaults: CHAT_PREFERENCE_DEFAULTS };
  }
}
