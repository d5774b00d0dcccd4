import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { EnvelopeCipher } from '@platform/crypto';
import { METRICS_REGISTRY } from '@platform/observability';
import { randomUUID } from 'node:crypto';
import { Counter, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { tokenContext } from './pii-crypto';
import { addHits, protectText } from './pii-policy';
import { PiiStrategyRepository } from './pii-strategy.repository';

/** One answered (or refused) chat turn as it is logged. */
export interface ChatLogEntry {
  tenantId: string;
  userId: string | null;
  projectKey: string | null;
  question: string;
  answer: string;
  citations: unknown;
  confidence: number;
  refusalReason: string | null;
  provider: unknown;
  model: unknown;
  latencyMs: unknown;
}

/**
 * Writes kb_chat_logs with the tenant's PII strategy applied to the question and the answer first:
 * masked values are gone, tokenized ones are encrypted into kb_pii_tokens in the same transaction,
 * so a log row never points at a token that was not stored.
 */
@Injectable()
export class ChatLogWriter {
  /** `kb_chat_answers_total{outcome, refusal_reason}`: the figure behind the "refusals rising" alert. */
  private readonly answers: Counter<'outcome' | 'refusal_reason'> | null;

  constructor(
    private readonly strategies: PiiStrategyRepository,
    private readonly cipher: EnvelopeCipher,
    @InjectDataSource() private readonly db: DataSource,
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
    await this.db.transaction(async (m) => {
      const [row] = await m.query(
        `INSERT INTO kb_chat_logs (tenant_id, user_id, project_key, question, answer, citations, confidence, refusal_reason, provider, model, latency_ms, pii_hits)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
        [
          e.tenantId,
          e.userId,
          e.projectKey,
          question.text,
          answer.text,
          JSON.stringify(e.citations),
          e.confidence,
          e.refusalReason,
          e.provider,
          e.model,
          e.latencyMs,
          JSON.stringify(addHits(question.hits, answer.hits)),
        ],
      );
      await this.strategies.insertTokens(m, e.tenantId, String(row.id), tokens);
    });
  }
}
