import { Injectable } from '@nestjs/common';
import { ChatAnswer, ChatService } from '../chat/chat.service';
import { ChatFiltersDto } from '../chat/dto/chat.dto';
import { KbError, KbValidationError } from '../errors/kb-errors';
import { titleFromQuestion } from './conversation-title';
import { ConversationRow, ConversationsRepository, MessageRow } from './conversations.repository';

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
    private readonly conversations: ConversationsRepository,
    private readonly chat: ChatService,
  ) {}

  async list(tenantId: string, userId: string) {
    return (await this.conversations.list(tenantId, userId)).map(conversation);
  }

  async create(tenantId: string, userId: string, projectKey: string | null | undefined) {
    return conversation(await this.conversations.create(tenantId, userId, projectKey ?? null));
  }

  async rename(tenantId: string, userId: string, id: string, title: string) {
    const row = await this.conversations.setTitle(tenantId, userId, id, title);
    if (!row) throw notFound('Conversation');
    return conversation(row);
  }

  async remove(tenantId: string, userId: string, id: string): Promise<void> {
    if (!(await this.conversations.remove(tenantId, userId, id))) throw notFound('Conversation');
  }

  async messages(tenantId: string, userId: string, id: string) {
    await this.owned(tenantId, userId, id);
    return (await this.conversations.messages(id)).map(message);
  }

  /** Asks the question in the conversation's project and keeps the turn; a failed answer keeps nothing. */
  async ask(tenantId: string, userId: string, id: string, content: string, filters?: ChatFiltersDto | null) {
    const owned = await this.owned(tenantId, userId, id);
    const answer = await this.chat.answer(tenantId, userId, { question: content, project_key: owned.project_key ?? undefined, filters });
    const reply = await this.conversations.addTurn(tenantId, id, content, answer.answer, assistantMetadata(answer));
    return { ...message(reply), confidence: answer.confidence, refusal_reason: answer.refusal_reason };
  }

  /** Rating an assistant message again with the same value clears it. */
  async rate(tenantId: string, userId: string, id: string, messageId: string, rating: 'positive' | 'negative') {
    await this.owned(tenantId, userId, id);
    const found = await this.conversations.message(id, messageId);
    if (!found) throw notFound('Message');
    if (found.role !== 'assistant') throw new KbValidationError({ message: ['Only an assistant message can be rated.'] });
    const next = found.rating === rating ? null : rating;
    await this.conversations.rate(id, messageId, next);
    return { rating: next };
  }

  async generateTitle(tenantId: string, userId: string, id: string) {
    await this.owned(tenantId, userId, id);
    const question = await this.conversations.firstQuestion(id);
    if (question === null) throw new KbValidationError({ conversation: ['The conversation has no question to name it after yet.'] });
    const title = titleFromQuestion(question);
    await this.conversations.setTitle(tenantId, userId, id, title);
    return { title };
  }

  private async owned(tenantId: string, userId: string, id: string): Promise<ConversationRow> {
    const row = await this.conversations.find(tenantId, userId, id);
    if (!row) throw notFound('Conversation');
    return row;
  }
}
