import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PageWindow } from '../../admin/pagination';

export interface ContentGapRow {
  id: string;
  question: string;
  normalized_question: string;
  count: number;
  refusals: number;
  mean_confidence: number;
  last_asked_at: Date;
  sample_refusal_reason: string | null;
}

/** Lower case, single spaces, no trailing punctuation: "How do I reset MFA? " and "how do i reset mfa" are one gap. */
const NORMALIZED = `btrim(regexp_replace(regexp_replace(lower(l.question), '[[:space:]]+', ' ', 'g'), '[[:space:][:punct:]]+$', ''))`;
/**
 * Questions the knowledge base could not ground: refused for lack of context or by the model, or
 * answered below the confidence threshold. A guardrail block is a policy decision, not a gap.
 */
const GAP_LOGS = `SELECT l.question, l.confidence, l.refusal_reason, l.created_at, ${NORMALIZED} AS normalized
  FROM kb_chat_logs l
 WHERE l.tenant_id = $1 AND l.created_at >= $2
   AND (l.refusal_reason IS NOT NULL OR l.confidence < $3) AND l.refusal_reason IS DISTINCT FROM 'blocked_by_guardrails'`;
/** Logs of open gaps: a resolution hides what was asked up to it; asking again reopens the gap. */
const OPEN = `SELECT g.*, md5(g.normalized) AS id FROM (${GAP_LOGS}) g
  LEFT JOIN kb_content_gap_resolutions r ON r.tenant_id = $1 AND r.gap_id = md5(g.normalized)
 WHERE g.normalized <> '' AND (r.resolved_at IS NULL OR g.created_at > r.resolved_at)`;

/** Content gaps grouped from kb_chat_logs, and their resolutions; every statement takes the tenant. */
@Injectable()
export class ContentGapsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async list(tenantId: string, since: Date, threshold: number, w: PageWindow): Promise<{ rows: ContentGapRow[]; total: number }> {
    const params = [tenantId, since, threshold];
    const [{ total }] = await this.db.query(`SELECT count(DISTINCT o.id)::int AS total FROM (${OPEN}) o`, params);
    const rows = await this.db.query(
      `SELECT o.id, (array_agg(o.question ORDER BY o.created_at DESC))[1] AS question, o.normalized AS normalized_question,
              count(*)::int AS count, count(o.refusal_reason)::int AS refusals, round(avg(o.confidence))::int AS mean_confidence,
              max(o.created_at) AS last_asked_at,
              (array_agg(o.refusal_reason ORDER BY o.created_at DESC) FILTER (WHERE o.refusal_reason IS NOT NULL))[1] AS sample_refusal_reason
         FROM (${OPEN}) o GROUP BY o.id, o.normalized
        ORDER BY count(*) DESC, max(o.created_at) DESC, o.id LIMIT $4 OFFSET $5`,
      [...params, w.perPage, w.offset],
    );
    return { rows, total };
  }

  /** The latest wording of an open gap, or null when the id names none. */
  async openQuestion(tenantId: string, id: string, since: Date, threshold: number): Promise<string | null> {
    const [row] = await this.db.query(`SELECT o.question FROM (${OPEN}) o WHERE o.id = $4 ORDER BY o.created_at DESC LIMIT 1`, [tenantId, since, threshold, id]);
    return row?.question ?? null;
  }

  async resolve(tenantId: string, id: string, question: string, note: string | null, userId: string | null) {
    const [row] = await this.db.query(
      `INSERT INTO kb_content_gap_resolutions (tenant_id, gap_id, question, note, resolved_by) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, gap_id) DO UPDATE SET question = EXCLUDED.question, note = EXCLUDED.note, resolved_by = EXCLUDED.resolved_by, resolved_at = now()
       RETURNING gap_id AS id, question, note, resolved_by::int AS resolved_by, resolved_at`,
      [tenantId, id, question, note, userId],
    );
    return row;
  }
}
