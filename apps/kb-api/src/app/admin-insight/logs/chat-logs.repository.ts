import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page, PageWindow } from '../../admin/pagination';
import { ChatLogQueryDto } from '../range-query.dto';
import { iso, SqlFilter } from '../sql-filter';
import { FilteredPageRepository } from '../filtered-page.repository';

export interface ChatLogRow {
  id: string;
  user: { id: string; name: string; email: string } | null;
  project_key: string | null;
  question: string;
  answer: string;
  confidence: number;
  refusal_reason: string | null;
  refused: boolean;
  provider: string | null;
  model: string | null;
  latency_ms: number;
  pii_hits: Record<string, number>;
  tokenized_values: number;
  created_at: string;
}

export interface ChatLogDetail extends ChatLogRow {
  citations: Array<{ document_id: number; chunks: number[] }>;
}

const COLUMNS = `l.id, l.user_id, u.name AS user_name, u.email AS user_email, l.project_key, l.question, l.answer, l.confidence, l.refusal_reason,
  l.provider, l.model, l.latency_ms, l.pii_hits, l.citations, l.created_at,
  (SELECT count(*)::int FROM kb_pii_tokens t WHERE t.tenant_id = l.tenant_id AND t.chat_log_id = l.id) AS tokenized_values`;
const FROM = 'kb_chat_logs l LEFT JOIN kb_users u ON u.id = l.user_id';

function toRow(r: Record<string, unknown>): ChatLogRow {
  return {
    id: String(r['id']),
    user:
      r['user_id'] === null
        ? null
        : {
            id: String(r['user_id']),
            name: r['user_name'] as string,
            email: r['user_email'] as string,
          },
    project_key: r['project_key'] as string | null,
    question: r['question'] as string,
    answer: r['answer'] as string,
    confidence: r['confidence'] as number,
    refusal_reason: r['refusal_reason'] as string | null,
    refused: r['refusal_reason'] !== null,
    provider: r['provider'] as string | null,
    model: r['model'] as string | null,
    latency_ms: r['latency_ms'] as number,
    pii_hits: r['pii_hits'] as Record<string, number>,
    tokenized_values: r['tokenized_values'] as number,
    created_at: iso(r['created_at'])!,
  };
}

/** kb_chat_logs as the admin reads them (the stored, already redacted text), by tenant. */
@Injectable()
export class ChatLogsRepository extends FilteredPageRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  list(tenantId: string, q: ChatLogQueryDto, window: PageWindow): Promise<Page<ChatLogRow>> {
    const filter = new SqlFilter('l.tenant_id', tenantId)
      .add('l.user_id = ?::bigint', q.user)
      .range('l.created_at', q.from, q.to)
      .search(['l.question', 'l.answer'], q.search)
      .when(q.refused === true, 'l.refusal_reason IS NOT NULL')
      .when(q.refused === false, 'l.refusal_reason IS NULL');
    return this.page({
      columns: COLUMNS,
      from: FROM,
      filter,
      order: 'l.id DESC',
      window,
      map: toRow,
    });
  }

  async find(tenantId: string, id: string): Promise<ChatLogDetail | null> {
    const [r] = await this.db.query(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE l.tenant_id = $1 AND l.id = $2`,
      [tenantId, id],
    );
    return r ? { ...toRow(r), citations: r.citations } : null;
  }
}
