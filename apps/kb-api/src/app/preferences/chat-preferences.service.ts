import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { KbValidationError } from '../errors/kb-errors';

/** What an unset preference means. */
export const CHAT_PREFERENCE_DEFAULTS = { counterfactual_enabled: true } as const;
/** Unknown keys are accepted (the client may add toggles), within these caps. */
export const MAX_CHAT_PREFERENCES = 50;
const KEY = /^[a-z][a-z0-9_]{0,63}$/;

type Preferences = Record<string, boolean>;

/** A user's chat toggles (booleans by key), kept apart from the account's display preferences. */
@Injectable()
export class ChatPreferencesService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async get(userId: string) {
    const [row] = await this.db.query('SELECT preferences FROM kb_chat_preferences WHERE user_id = $1', [userId]);
    return { preferences: (row?.preferences ?? {}) as Preferences, defaults: CHAT_PREFERENCE_DEFAULTS };
  }

  /** Merges the patch; a malformed key or value, or too many keys, rejects the whole patch. */
  async patch(userId: string, patch: Record<string, unknown>) {
    const errors: Record<string, string[]> = {};
    for (const [key, value] of Object.entries(patch)) {
      if (!KEY.test(key)) errors[`preferences.${key}`] = ['A preference key is lower-case letters, digits and underscores (at most 64).'];
      else if (value !== null && typeof value !== 'boolean') errors[`preferences.${key}`] = ['A preference is true, false or null.'];
    }
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    return this.db.transaction(async (m) => {
      await m.query('INSERT INTO kb_chat_preferences (user_id) VALUES ($1) ON CONFLICT DO NOTHING', [userId]);
      const [row] = await m.query('SELECT preferences FROM kb_chat_preferences WHERE user_id = $1 FOR UPDATE', [userId]);
      const next: Preferences = { ...row.preferences };
      for (const [key, value] of Object.entries(patch)) {
        if (value === null) delete next[key];
        else next[key] = value as boolean;
      }
      if (Object.keys(next).length > MAX_CHAT_PREFERENCES) throw new KbValidationError({ preferences: [`At most ${MAX_CHAT_PREFERENCES} chat preferences can be stored.`] });
      await m.query('UPDATE kb_chat_preferences SET preferences = $2, updated_at = now() WHERE user_id = $1', [userId, JSON.stringify(next)]);
      return { preferences: next, defaults: CHAT_PREFERENCE_DEFAULTS };
    });
  }
}
