import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReviewLogEntry, severityOf, VERDICTS, Verdict } from '@platform/evidence-engine';
import { DataSource } from 'typeorm';

export interface ReviewListQuery {
  page: number;
  perPage: number;
  profile?: string;
  minVerdict?: Verdict;
  artifactId?: string;
}

/** The review log; every read and write takes the tenant. */
@Injectable()
export class ReviewLogRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async append(tenantId: string, entry: ReviewLogEntry): Promise<void> {
    const r = entry.result;
    await this.dataSource.query(
      `INSERT INTO evidence_review_logs (tenant_id, review_id, artifact_id, profile_key, max_verdict, verdict_severity, risk_score,
         result, artifact, options, reviewed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [tenantId, r.review_id, r.artifact_id, r.profile_key, r.verdict, severityOf(r.verdict), r.risk_score, JSON.stringify(r), entry.artifact, entry.options, r.reviewed_at],
    );
  }

  async list(tenantId: string, q: ReviewListQuery) {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    if (q.profile) where.push(`profile_key = $${params.push(q.profile)}`);
    if (q.artifactId) where.push(`artifact_id = $${params.push(q.artifactId)}`);
    if (q.minVerdict && (VERDICTS as readonly string[]).includes(q.minVerdict)) where.push(`verdict_severity >= $${params.push(severityOf(q.minVerdict))}`);
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM evidence_review_logs WHERE ${where.join(' AND ')}`, params);
    const rows = await this.dataSource.query(
      `SELECT review_id, artifact_id, profile_key, max_verdict, risk_score::float AS risk_score, tenant_id, reviewed_at, created_at
         FROM evidence_review_logs WHERE ${where.join(' AND ')}
        ORDER BY reviewed_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.perPage, (q.page - 1) * q.perPage],
    );
    return { data: rows, current_page: q.page, last_page: Math.max(1, Math.ceil(total / q.perPage)), per_page: q.perPage, total };
  }

  /** The latest stored result for a review id, as the exact JSON text first returned. */
  async find(tenantId: string, reviewId: string): Promise<string | null> {
    const [row] = await this.dataSource.query(
      'SELECT result FROM evidence_review_logs WHERE tenant_id = $1 AND review_id = $2 ORDER BY id DESC LIMIT 1',
      [tenantId, reviewId],
    );
    return row ? (row.result as string) : null;
  }
}
