import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChatAnswer, ChatService } from '../chat/chat.service';
import { ChatFiltersDto } from '../chat/dto/chat.dto';
import { KbError, KbValidationError } from '../errors/kb-errors';
import { titleFromQuestion } from './conversation-title';

interface ConversationRow {
  id: string;
  title: string | null;
  project_key: string | null;
  created_at: Date;
  updated_at: Date;
}

interface MessageRow {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  metadata: Record<string, unknown>;
  rating: 'positive' | 'negative' | null;
  created_at: Date;
}

const CONVERSATION = 'id, title, project_key, created_at, updated_at';
const MESSAGE = 'id, role, content, metadata, rating, created_at';
const conversation = (r: ConversationRow) => ({ ...r, id: Number(r.id) });
const message = (r: MessageRow) => ({ ...r, id: Number(r.id) });
const notFound = (what: string) => new KbError(404, 'not_found', `${what} not found.`);

/** How a chat answer is kept as an assistant message: the answer's own data plus its cost fields. */
function assistantMetadata(a: ChatAnswer) {
  return {
    provider: a.meta['provider'] ?? 'none',
    model: a.meta['model'] ?? null,
    prompt_tokens: null,
    completion_tokens: null,
    total_tokens: null,
    cost: null,
    cost_currency: null,
    chunks_count: a.meta['chunks_used'] ?? 0,
    latency_ms: a.meta['latency_ms'] ?? null,
    citations: a.citations,
    tool_calls_count: 0,
    tool_calls: [],
    confidence: a.confidence,
    refusal_reason: a.refusal_reason,
  };
}

/**
 * Conversations are private to their owner in the active tenant; anyone else's id is answered as
 * missing (404), so ids reveal nothing. A message is one chat turn asked through ChatService.
 */
@Injectable()
export class ConversationsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly chat: ChatService,
  ) {}

  async list(tenantId: string, userId: string) {
    const rows: ConversationRow[] = await this.db.query(
      `SELECT ${CONVERSATION} FROM kb_conversations WHERE tenant_id = $1 AND user_id = $2 ORDER BY updated_at DESC, id DESC`,
      [tenantId, userId],
    );
    return rows.map(conversation);
  }

  async create(tenantId: string, userId: string, projectKey: string | undefined) {
    const [row] = await this.db.query(
      `INSERT INTO kb_conversations (tenant_id, user_id, project_key) VALUES ($1, $2, $3) RETURNING ${CONVERSATION}`,
      [tenantId, userId, projectKey ?? null],
    );
    return conversation(row);
  }

  async rename(tenantId: string, userId: string, id: string, title: string) {
    const [[row]] = await this.db.query(
      `UPDATE kb_conversations SET title = $4, updated_at = now() WHERE tenant_id = $1 AND user_id = $2 AND id = $3 RETURNING ${CONVERSATION}`,
      [tenantId, userId, id, title],
    );
    if (!row) throw notFound('Conversation');
    return conversation(row);
  }

  async remove(tenantId: string, userId: string, id: string): Promise<void> {
    const [, count] = await this.db.query('DELETE FROM kb_conversations WHERE tenant_id = $1 AND user_id = $2 AND id = $3', [tenantId, userId, id]);
    if (!count) throw notFound('Conversation');
  }

  async messages(tenantId: string, userId: string, id: string) {
    await this.owned(tenantId, userId, id);
    const rows: MessageRow[] = await this.db.query(`SELECT ${MESSAGE} FROM kb_conversation_messages WHERE conversation_id = $1 ORDER BY id`, [id]);
    return rows.map(message);
  }

  /** Asks the question in the conversation's project and keeps the turn; a failed answer keeps nothing. */
  async ask(tenantId: string, userId: string, id: string, content: string, filters?: ChatFiltersDto) {
    const owned = await this.owned(tenantId, userId, id);
    if (filters?.date_from && filters.date_to && filters.date_to < filters.date_from) {
      throw new KbValidationError({ 'filters.date_to': ['The end date must be on or after the start date.'] });
    }
    const answer = await this.chat.answer(tenantId, userId, { question: content, project_key: owned.project_key ?? undefined, filters });
    const reply = await this.db.transaction(async (m) => {
      await m.query(`INSERT INTO kb_conversation_messages (tenant_id, conversation_id, role, content) VALUES ($1, $2, 'user', $3)`, [tenantId, id, content]);
      const [row] = await m.query(
        `INSERT INTO kb_conversation_messages (tenant_id, conversation_id, role, content, metadata) VALUES ($1, $2, 'assistant', $3, $4) RETURNING ${MESSAGE}`,
        [tenantId, id, answer.answer, JSON.stringify(assistantMetadata(answer))],
      );
      await m.query('UPDATE kb_conversations SET updated_at = now() WHERE id = $1', [id]);
      return row as MessageRow;
    });
    return { ...message(reply), confidence: answer.confidence, refusal_reason: answer.refusal_reason };
  }

  /** Rating an assistant message again with the same value clears it. */
  async rate(tenantId: string, userId: string, id: string, messageId: string, rating: 'positive' | 'negative') {
    await this.owned(tenantId, userId, id);
    const [row] = await this.db.query('SELECT role, rating FROM kb_conversation_messages WHERE conversation_id = $1 AND id = $2', [id, messageId]);
    if (!row) throw notFound('Message');
    if (row.role !== 'assistant') throw new KbValidationError({ message: ['Only an assistant message can be rated.'] });
    const next = row.rating === rating ? null : rating;
    await this.db.query('UPDATE kb_conversation_messages SET rating = $3 WHERE conversation_id = $1 AND id = $2', [id, messageId, next]);
    return { rating: next };
  }

  async generateTitle(tenantId: string, userId: string, id: string) {
    await this.owned(tenantId, userId, id);
    const [first] = await this.db.query(`SELECT content FROM kb_conversation_messages WHERE conversation_id = $1 AND role = 'user' ORDER BY id LIMIT 1`, [id]);
    if (!first) throw new KbValidationError({ conversation: ['The conversation has no question to name it after yet.'] });
    const title = titleFromQuestion(first.content);
    await this.db.query('UPDATE kb_conversations SET title = $2, updated_at = now() WHERE id = $1', [id, title]);
    return { title };
  }

  private async owned(tenantId: string, userId: string, id: string): Promise<ConversationRow> {
    const [row] = await this.db.query(`SELECT ${CONVERSATION} FROM kb_conversations WHERE tenant_id = $1 AND user_id = $2 AND id = $3`, [tenantId, userId, id]);
    if (!row) throw notFound('Conversation');
    return row;
  }
}
