import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type SeriesMetric = 'chats' | 'refusals' | 'ingested';

export interface InventoryCounts {
  documents: number;
  documents_by_status: Record<string, number>;
  chunks: number;
  projects: number;
  users: number;
}

export interface ChatWindowRow {
  chats_24h: number;
  refused_24h: number;
  chats_7d: number;
  refused_7d: number;
  mean_confidence_7d: number | null;
}

/** One UTC day's count, for each day of the window (days without events count 0). */
const SERIES_SQL: Record<SeriesMetric, string> = {
  chats: `SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM kb_chat_logs WHERE tenant_id = $1 AND created_at >= $3 GROUP BY 1`,
  refusals: `SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM kb_chat_logs WHERE tenant_id = $1 AND created_at >= $3 AND refusal_reason IS NOT NULL GROUP BY 1`,
  ingested: `SELECT (indexed_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n FROM kb_documents WHERE tenant_id = $1 AND deleted_at IS NULL AND indexed_at >= $3 GROUP BY 1`,
};

/** The dashboard's reads; every statement takes the tenant. */
@Injectable()
export class MetricsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async inventory(tenantId: string): Promise<InventoryCounts> {
    const [row] = await this.db.query(
      `SELECT (SELECT count(*)::int FROM kb_documents WHERE tenant_id = $1 AND deleted_at IS NULL) AS documents,
              (SELECT coalesce(jsonb_object_agg(status, n), '{}'::jsonb) FROM (
                 SELECT status, count(*)::int AS n FROM kb_documents WHERE tenant_id = $1 AND deleted_at IS NULL GROUP BY status) s) AS documents_by_status,
              (SELECT count(*)::int FROM kb_chunks WHERE tenant_id = $1) AS chunks,
              (SELECT count(*)::int FROM kb_projects WHERE tenant_id = $1) AS projects,
              (SELECT count(*)::int FROM kb_users WHERE tenant_id = $1) AS users`,
      [tenantId],
    );
    return row;
  }

  async chatWindows(tenantId: string, now: Date): Promise<ChatWindowRow> {
    const [row] = await this.db.query(
      `SELECT count(*) FILTER (WHERE created_at >= $2::timestamptz - interval '24 hours')::int AS chats_24h,
              count(*) FILTER (WHERE created_at >= $2::timestamptz - interval '24 hours' AND refusal_reason IS NOT NULL)::int AS refused_24h,
              count(*)::int AS chats_7d,
              count(*) FILTER (WHERE refusal_reason IS NOT NULL)::int AS refused_7d,
              round(avg(confidence) FILTER (WHERE refusal_reason IS NULL), 1)::float8 AS mean_confidence_7d
         FROM kb_chat_logs WHERE tenant_id = $1 AND created_at >= $2::timestamptz - interval '7 days'`,
      [tenantId, now],
    );
    return row;
  }

  async feedback(tenantId: string): Promise<Record<string, number>> {
    const rows: Array<{ signal: string; n: number }> = await this.db.query(
      'SELECT signal, count(*)::int AS n FROM kb_chunk_feedback WHERE tenant_id = $1 GROUP BY signal',
      [tenantId],
    );
    return Object.fromEntries(rows.map((r) => [r.signal, r.n]));
  }

  /** Daily counts for the `days` UTC days ending today. */
  async series(tenantId: string, metric: SeriesMetric, days: number, now: Date): Promise<Array<{ date: string; value: number }>> {
    return this.db.query(
      `WITH span AS (SELECT ($2::timestamptz AT TIME ZONE 'UTC')::date AS today),
            x AS (${SERIES_SQL[metric]})
       SELECT to_char(g.day, 'YYYY-MM-DD') AS date, coalesce(x.n, 0)::int AS value
         FROM span, generate_series(span.today - ($4::int - 1), span.today, interval '1 day') AS g(day)
         LEFT JOIN x ON x.day = g.day::date
        ORDER BY g.day`,
      [tenantId, now, startOfWindow(now, days), days],
    );
  }

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }
}

/** Midnight UTC of the first day of a `days`-day window ending on `now`'s UTC day. */
export function startOfWindow(now: Date, days: number): Date {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - (days - 1));
  return d;
}
