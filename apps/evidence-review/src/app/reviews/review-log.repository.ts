import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ReviewLogEntry, severityOf, VERDICTS, Verdict } from '@platform/evidence-engine';
import { postgresSqlState } from '@platform/observability';
import { DataSource } from 'typeorm';
import { GroupCommit } from './group-commit';

const COLUMNS = 11;
/** Rows per INSERT under load (parameters stay far below Postgres's 65,535). */
const MAX_ROWS_PER_INSERT = 200;

function rowValues(tenantId: string, entry: ReviewLogEntry): unknown[] {
  const r = entry.result;
  return [tenantId, r.review_id, r.artifact_id, r.profile_key, r.verdict, severityOf(r.verdict), r.risk_score, JSON.stringify(r), entry.artifact, entry.options, r.reviewed_at];
}

/** A statement Postgres refused for a value in it (SQLSTATE class 22 data exception, 23 constraint), not for being down. */
const refusedValue = (e: unknown) => /^2[23]/.test(postgresSqlState(e) ?? '');

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
  // Concurrent appends share one multi-row INSERT (one statement: all rows commit or none; a
  // failed one is retried row by row, so each review gets its own row's outcome).
  private readonly appends = new GroupCommit<unknown[]>((rows) => this.insert(rows), MAX_ROWS_PER_INSERT, refusedValue);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Resolves once the row is committed: a review is acknowledged only after it is in the log. A
   * review id already logged for the tenant keeps its first row (the id names one review, and
   * GET /reviews/{id} serves it as first returned): the append is then a no-op.
   */
  append(tenantId: string, entry: ReviewLogEntry): Promise<void> {
    return this.appends.add(rowValues(tenantId, entry));
  }

  private async insert(rows: unknown[][]): Promise<void> {
    const tuples = rows.map((_, i) => `(${Array.from({ length: COLUMNS }, (_c, j) => `$${i * COLUMNS + j + 1}`).join(', ')})`);
    await this.dataSource.query(
      `INSERT INTO evidence_review_logs (tenant_id, review_id, artifact_id, profile_key, max_verdict, verdict_severity, risk_score,
         result, artifact, options, reviewed_at)
       VALUES ${tuples.join(', ')}
       ON CONFLICT (tenant_id, review_id) DO NOTHING`,
      rows.flat(),
    );
  }

  /**
   * A page of the tenant's log, newest logged first: by the row id, the order rows were written,
   * not by reviewed_at, which a client may set (options.reviewed_at) to any instant.
   */
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
        ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.perPage, (q.page - 1) * q.perPage],
    );
    return { data: rows, current_page: q.page, last_page: Math.max(1, Math.ceil(total / q.perPage)), per_page: q.perPage, total };
  }

  /** The stored result for a review id (one row per id), as the exact JSON text first returned. */
  async find(tenantId: string, reviewId: string): Promise<string | null> {
    const [row] = await this.dataSource.query(
      'SELECT result FROM evidence_review_logs WHERE tenant_id = $1 AND review_id = $2',
      [tenantId, reviewId],
    );
    return row ? (row.result as string) : null;
  }
}
