import { Inject, Injectable, Optional } from '@nestjs/common';
import { EnvelopeCipher } from '@platform/crypto';
import { METRICS_REGISTRY } from '@platform/observability';
import { randomUUID } from 'node:crypto';
import { Counter, Registry } from 'prom-client';
import { tokenContext } from '../admin-insight/pii/pii-crypto';
import { addHits, protectText } from '../admin-insight/pii/pii-policy';
import { PiiStrategyRepository } from '../admin-insight/pii/pii-strategy.repository';
import { ChatLogRepository, ChatLogRow } from './chat-log.repository';

/** One answered (or refused) chat turn as it is logged: the stored row before the PII strategy counts its hits. */
export type ChatLogEntry = Omit<ChatLogRow, 'piiHits'>;

/**
 * Logs each chat turn with the tenant's PII strategy (set in the admin insight screens) applied to
 * the question and the answer first: masked values are gone, tokenized ones are encrypted and
 * stored with the row (ChatLogRepository), so a log row never points at a token that was not stored.
 * Chat owns this log; the admin only reads it.
 */
@Injectable()
export class ChatLogWriter {
  /** `kb_chat_answers_total{outcome, refusal_reason}`: the figure behind the "refusals rising" alert. */
  private readonly answers: Counter<'outcome' | 'refusal_reason'> | null;

  constructor(
    private readonly strategies: PiiStrategyRepository,
    private readonly cipher: EnvelopeCipher,
    private readonly logs: ChatLogRepository,
    @Optional() @Inject(METRICS_REGISTRY) registry?: Registry,
  ) {
    const name = 'kb_chat_answers_total';
    this.answers = registry
      ? ((registry.getSingleMetric(name) as Counter<'outcome' | 'refusal_reason'> | undefined) ??
        new Counter({ name, help: 'Chat turns by outcome (answered or refused) and refusal reason', labelNames: ['outcome', 'refusal_reason'], registers: [registry] }))
      : null;
  }

  async write(e: ChatLogEntry): Promise<void> {
    this.answers?.inc({ outcome: e.refusalReason ? 'refused' : 'answered', refusal_reason: e.refusalReason ?? 'none' });
    const { actions } = await this.strategies.find(e.tenantId);
    const question = protectText(e.question, actions, randomUUID);
    const answer = protectText(e.answer, actions, randomUUID);
    const tokens = [...question.tokens, ...answer.tokens].map((t) => ({
      id: t.id,
      detector: t.detector,
      ciphertext: this.cipher.encrypt(t.value, tokenContext(e.tenantId, t.id)),
    }));
    await this.logs.insert(
      {
        tenantId: e.tenantId,
        userId: e.userId,
        projectKey: e.projectKey,
        question: question.text,
        answer: answer.text,
        citations: e.citations,
        confidence: e.confidence,
        refusalReason: e.refusalReason,
        provider: e.provider,
        model: e.model,
        latencyMs: e.latencyMs,
        piiHits: addHits(question.hits, answer.hits),
      },
      tokens,
    );
  }
}
