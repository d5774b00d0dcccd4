import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** A chat turn as stored: question and answer already redacted by the tenant's PII strategy. */
export interface ChatLogRow {
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
  piiHits: Record<string, number>;
}

/** A tokenized personal value, encrypted, that a redacted log row refers to by id. */
export interface PiiToken {
  id: string;
  detector: string;
  ciphertext: string;
}

/** kb_chat_logs and the kb_pii_tokens of each row, written together by tenant. */
@Injectable()
export class ChatLogRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The row and its tokens in one statement (atomic like a transaction, one round trip instead of
   * four on every chat turn), so a row never points at a token that was not stored.
   */
  async insert(log: ChatLogRow, tokens: PiiToken[]): Promise<void> {
    await this.db.query(
      `WITH log AS (
         INSERT INTO kb_chat_logs (tenant_id, user_id, project_key, question, answer, citations, confidence, refusal_reason, provider, model, latency_ms, pii_hits)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id)
       INSERT INTO kb_pii_tokens (id, tenant_id, chat_log_id, detector, ciphertext)
       SELECT t.id, $1, log.id, t.detector, t.ciphertext FROM log, jsonb_to_recordset($13::jsonb) AS t(id uuid, detector text, ciphertext text)`,
      [
        log.tenantId,
        log.userId,
        log.projectKey,
        log.question,
        log.answer,
        JSON.stringify(log.citations),
        log.confidence,
        log.refusalReason,
        log.provider,
        log.model,
        log.latencyMs,
        JSON.stringify(log.piiHits),
        JSON.stringify(tokens),
      ],
    );
  }
}
