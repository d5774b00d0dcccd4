import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Page, PageWindow } from '../../admin/pagination';
import { RangeQueryDto } from '../range-query.dto';
import { idText, iso, SqlFilter } from '../sql-filter';
import { FilteredPageRepository } from '../filtered-page.repository';

export interface InsightPeriod {
  from: Date;
  to: Date;
}

export interface InsightData {
  totals: {
    questions: number;
    refused: number;
    refusal_rate: number;
    mean_confidence: number | null;
  };
  top_questions: Array<{ question: string; asked: number; refused: number; last_asked_at: string }>;
  per_project: Array<{
    project_key: string;
    questions: number;
    refused: number;
    refusal_rate: number;
    mean_confidence: number | null;
  }>;
  per_day: Array<{
    day: string;
    questions: number;
    refused: number;
    refusal_rate: number;
    mean_confidence: number | null;
  }>;
  most_cited_documents: Array<{
    document_id: string;
    title: string;
    project_key: string;
    source_path: string;
    citations: number;
  }>;
  never_cited_documents: {
    total: number;
    sample: Array<{ document_id: string; title: string; project_key: string; source_path: string }>;
  };
  feedback: Array<{
    document_id: string;
    title: string;
    project_key: string;
    helpful: number;
    unhelpful: number;
  }>;
}

export interface InsightSnapshot {
  id: string;
  period_from: string;
  period_to: string;
  computed_by: string | null;
  created_at: string;
  data: InsightData;
}

const TOP = 20;
const SAMPLE = 50;
/**
 * A log's project: the one it was asked in, else the project of its first cited document; a
 * question asked across every project and refused has none.
 */
const PROJECT = `coalesce(l.project_key, (SELECT d.project_key FROM kb_documents d WHERE d.tenant_id = l.tenant_id AND d.id = (l.citations->0->>'document_id')::bigint), '(all projects)')`;
/** Mean confidence over answered questions: a refusal has confidence 0 by definition and is counted by the refusal rate. */
const RATES = `count(*)::int AS questions, count(l.refusal_reason)::int AS refused,
  round(count(l.refusal_reason)::numeric / greatest(count(*), 1), 4)::float AS refusal_rate,
  round(avg(l.confidence) FILTER (WHERE l.refusal_reason IS NULL), 2)::float AS mean_confidence`;
const IN_PERIOD = 'l.tenant_id = $1 AND l.created_at >= $2 AND l.created_at <= $3';

/** Aggregates over chat logs, documents and feedback of one tenant, and the stored snapshots. */
@Injectable()
export class InsightsRepository extends FilteredPageRepository {
  constructor(@InjectDataSource() db: DataSource) {
    super(db);
  }

  async compute(tenantId: string, period: InsightPeriod): Promise<InsightData> {
    const args = [tenantId, period.from, period.to];
    const [
      [totals],
      topQuestions,
      perProject,
      perDay,
      mostCited,
      [neverCitedTotal],
      neverCited,
      feedback,
    ] = await Promise.all([
      this.db.query(`SELECT ${RATES} FROM kb_chat_logs l WHERE ${IN_PERIOD}`, args),
      // Questions are grouped as written, case and spacing aside (they are stored already redacted).
      this.db.query(
        `SELECT min(l.question) AS question, count(*)::int AS asked, count(l.refusal_reason)::int AS refused, max(l.created_at) AS last_asked_at
           FROM kb_chat_logs l WHERE ${IN_PERIOD}
          GROUP BY lower(regexp_replace(trim(l.question), '\\s+', ' ', 'g')) ORDER BY asked DESC, last_asked_at DESC LIMIT ${TOP}`,
        args,
      ),
      this.db.query(
        `SELECT ${PROJECT} AS project_key, ${RATES} FROM kb_chat_logs l WHERE ${IN_PERIOD} GROUP BY 1 ORDER BY questions DESC, project_key`,
        args,
      ),
      this.db.query(
        `SELECT to_char(date_trunc('day', l.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, ${RATES} FROM kb_chat_logs l WHERE ${IN_PERIOD} GROUP BY 1 ORDER BY 1`,
        args,
      ),
      this.db.query(
        `SELECT d.id AS document_id, d.title, d.project_key, d.source_path, count(*)::int AS citations
           FROM kb_chat_logs l CROSS JOIN LATERAL jsonb_array_elements(l.citations) c
           JOIN kb_documents d ON d.tenant_id = l.tenant_id AND d.id = (c->>'document_id')::bigint
          WHERE ${IN_PERIOD} GROUP BY d.id ORDER BY citations DESC, d.id LIMIT ${TOP}`,
        args,
      ),
      this.db.query(
        `SELECT count(*)::int AS total FROM kb_documents d WHERE d.tenant_id = $1 AND d.deleted_at IS NULL AND ${NEVER_CITED}`,
        args,
      ),
      this.db.query(
        `SELECT d.id AS document_id, d.title, d.project_key, d.source_path FROM kb_documents d WHERE d.tenant_id = $1 AND d.deleted_at IS NULL AND ${NEVER_CITED} ORDER BY d.id LIMIT ${SAMPLE}`,
        args,
      ),
      // "should have cited" marks a chunk the reader found useful, "not relevant" one that was not.
      this.db.query(
        `SELECT d.id AS document_id, d.title, d.project_key,
                count(*) FILTER (WHERE f.signal = 'should_have_cited')::int AS helpful, count(*) FILTER (WHERE f.signal = 'not_relevant')::int AS unhelpful
           FROM kb_chunk_feedback f JOIN kb_documents d ON d.id = f.document_id AND d.tenant_id = f.tenant_id
          WHERE f.tenant_id = $1 AND f.updated_at >= $2 AND f.updated_at <= $3 GROUP BY d.id ORDER BY count(*) DESC, d.id LIMIT ${TOP}`,
        args,
      ),
    ]);
    const ids = (rows: Array<Record<string, unknown>>) =>
      rows.map((r) => ({ ...r, document_id: String(r['document_id']) }));
    return {
      totals,
      top_questions: topQuestions.map((r: Record<string, unknown>) => ({
        ...r,
        last_asked_at: iso(r['last_asked_at']),
      })),
      per_project: perProject,
      per_day: perDay,
      most_cited_documents: ids(mostCited),
      never_cited_documents: { total: neverCitedTotal.total, sample: ids(neverCited) },
      feedback: ids(feedback),
    } as InsightData;
  }

  async store(
    tenantId: string,
    period: InsightPeriod,
    data: InsightData,
    userId: string | null,
  ): Promise<InsightSnapshot> {
    const [row] = await this.db.query(
      `INSERT INTO kb_insight_snapshots (tenant_id, period_from, period_to, data, computed_by) VALUES ($1, $2, $3, $4, $5) RETURNING ${SNAPSHOT}`,
      [tenantId, period.from, period.to, JSON.stringify(data), userId],
    );
    return snapshot(row);
  }

  async latest(tenantId: string): Promise<InsightSnapshot | null> {
    const [row] = await this.db.query(
      `SELECT ${SNAPSHOT} FROM kb_insight_snapshots WHERE tenant_id = $1 ORDER BY id DESC LIMIT 1`,
      [tenantId],
    );
    return row ? snapshot(row) : null;
  }

  /** The history without each snapshot's bulky detail: its totals only; from/to select by creation time. */
  history(
    tenantId: string,
    q: RangeQueryDto,
    window: PageWindow,
  ): Promise<Page<Omit<InsightSnapshot, 'data'> & { totals: InsightData['totals'] }>> {
    const filter = new SqlFilter('tenant_id', tenantId).range('created_at', q.from, q.to);
    return this.page({
      columns: "id, period_from, period_to, computed_by, created_at, data->'totals' AS totals",
      from: 'kb_insight_snapshots',
      filter,
      order: 'id DESC',
      window,
      map: (r) => ({
        id: String(r['id']),
        period_from: iso(r['period_from'])!,
        period_to: iso(r['period_to'])!,
        computed_by: idText(r['computed_by']),
        created_at: iso(r['created_at'])!,
        totals: r['totals'] as InsightData['totals'],
      }),
    });
  }
}

/** Never cited by any chat answer of the period. */
const NEVER_CITED = `NOT EXISTS (SELECT 1 FROM kb_chat_logs l WHERE ${IN_PERIOD} AND l.citations @> jsonb_build_array(jsonb_build_object('document_id', d.id)))`;
const SNAPSHOT = 'id, period_from, period_to, computed_by, created_at, data';

function snapshot(r: Record<string, unknown>): InsightSnapshot {
  return {
    id: String(r['id']),
    period_from: iso(r['period_from'])!,
    period_to: iso(r['period_to'])!,
    computed_by: idText(r['computed_by']),
    created_at: iso(r['created_at'])!,
    data: r['data'] as InsightData,
  };
}
