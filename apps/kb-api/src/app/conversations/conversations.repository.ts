import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface ConversationRow {
  id: string;
  title: string | null;
  project_key: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface MessageRow {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  metadata: Record<string, unknown>;
  rating: 'positive' | 'negative' | null;
  created_at: Date;
}

const CONVERSATION = 'id, title, project_key, created_at, updated_at';
const MESSAGE = 'id, role, content, metadata, rating, created_at';

/**
 * Conversations and their messages. A conversation is always looked up by tenant and owner, so
 * another user's id finds nothing; message statements run only after that lookup succeeded.
 */
@Injectable()
export class ConversationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  list(tenantId: string, userId: string): Promise<ConversationRow[]> {
    return this.db.query(`SELECT ${CONVERSATION} FROM kb_conversations WHERE tenant_id = $1 AND user_id = $2 ORDER BY updated_at DESC, id DESC`, [tenantId, userId]);
  }

  async find(tenantId: string, userId: string, id: string): Promise<ConversationRow | null> {
    const [row] = await this.db.query(`SELECT ${CONVERSATION} FROM kb_conversations WHERE tenant_id = $1 AND user_id = $2 AND id = $3`, [tenantId, userId, id]);
    return row ?? null;
  }

  async create(tenantId: string, userId: string, projectKey: string | null): Promise<ConversationRow> {
    const [row] = await this.db.query(`INSERT INTO kb_conversations (tenant_id, user_id, project_key) VALUES ($1, $2, $3) RETURNING ${CONVERSATION}`, [tenantId, userId, projectKey]);
    return row;
  }

  async setTitle(tenantId: string, userId: string, id: string, title: string): Promise<ConversationRow | null> {
    const [[row]] = await this.db.query(
      `UPDATE kb_conversations SET title = $4, updated_at = now() WHERE tenant_id = $1 AND user_id = $2 AND id = $3 RETURNING ${CONVERSATION}`,
      [tenantId, userId, id, title],
    );
    return row ?? null;
  }

  /** Whether a row was deleted (its messages go with it). */
  async remove(tenantId: string, userId: string, id: string): Promise<boolean> {
    const [, count] = await this.db.query('DELETE FROM kb_conversations WHERE tenant_id = $1 AND user_id = $2 AND id = $3', [tenantId, userId, id]);
    return Number(count) > 0;
  }

  messages(conversationId: string): Promise<MessageRow[]> {
    return this.db.query(`SELECT ${MESSAGE} FROM kb_conversation_messages WHERE conversation_id = $1 ORDER BY id`, [conversationId]);
  }

  async firstQuestion(conversationId: string): Promise<string | null> {
    const [row] = await this.db.query(`SELECT content FROM kb_conversation_messages WHERE conversation_id = $1 AND role = 'user' ORDER BY id LIMIT 1`, [conversationId]);
    return row?.content ?? null;
  }

  /** The question and its answer, stored together; the conversation moves to the top of the list. */
  async addTurn(tenantId: string, conversationId: string, question: string, answer: string, metadata: object): Promise<MessageRow> {
    return this.db.transaction(async (m) => {
      await m.query(`INSERT INTO kb_conversation_messages (tenant_id, conversation_id, role, content) VALUES ($1, $2, 'user', $3)`, [tenantId, conversationId, question]);
      const [row] = await m.query(
        `INSERT INTO kb_conversation_messages (tenant_id, conversation_id, role, content, metadata) VALUES ($1, $2, 'assistant', $3, $4) RETURNING ${MESSAGE}`,
        [tenantId, conversationId, answer, JSON.stringify(metadata)],
      );
      await m.query('UPDATE kb_conversations SET updated_at = now() WHERE id = $1', [conversationId]);
      return row as MessageRow;
    });
  }

  async message(conversationId: string, messageId: string): Promise<Pick<MessageRow, 'role' | 'rating'> | null> {
    const [row] = await this.db.query('SELECT role, rating FROM kb_conversation_messages WHERE conversation_id = $1 AND id = $2', [conversationId, messageId]);
    return row ?? null;
  }

  async rate(conversationId: string, messageId: string, rating: 'positive' | 'negative' | null): Promise<void> {
    await this.db.query('UPDATE kb_conversation_messages SET rating = $3 WHERE conversation_id = $1 AND id = $2', [conversationId, messageId, rating]);
  }
}
