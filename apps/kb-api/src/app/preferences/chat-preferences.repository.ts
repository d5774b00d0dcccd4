import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type ChatPreferences = Record<string, boolean>;

/** kb_chat_preferences: one row of boolean toggles per user (personal, so keyed by user, not tenant). */
@Injectable()
export class ChatPreferencesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The stored toggles, or null when the user has none yet. */
  async find(userId: string): Promise<ChatPreferences | null> {
    const [row] = await this.db.query('SELECT preferences FROM kb_chat_preferences WHERE user_id = $1', [userId]);
    return (row?.preferences as ChatPreferences | undefined) ?? null;
  }

  /**
   * Read-modify-write under a row lock, so two concurrent patches both land: `change` gets the
   * current toggles and returns the next ones (it may throw to write nothing).
   */
  update(userId: string, change: (current: ChatPreferences) => ChatPreferences): Promise<ChatPreferences> {
    return this.db.transaction(async (m) => {
      await m.query('INSERT INTO kb_chat_preferences (user_id) VALUES ($1) ON CONFLICT DO NOTHING', [userId]);
      const [row] = await m.query('SELECT preferences FROM kb_chat_preferences WHERE user_id = $1 FOR UPDATE', [userId]);
      const next = change({ ...row.preferences });
      await m.query('UPDATE kb_chat_preferences SET preferences = $2, updated_at = now() WHERE user_id = $1', [userId, JSON.stringify(next)]);
      return next;
    });
  }
}
