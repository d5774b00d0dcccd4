import { AuditListQuery, AuditStore, AuditTotals, AuditTrendPoint, InjectionAttempt, RetentionStrategy, StoredInjectionAttempt } from '../ports/audit-store.port';
import { KeysetPage, TimeWindow } from '../ports/keyset-page';
import { keysetLimit, pageOf } from './keyset-sql';
import { likeContains, SqlRunner, WhereBuilder } from './tables';

interface AuditRow {
  id: string;
  prompt: string;
  blocked: boolean;
  rule_id: string | null;
  principal_id: string | null;
  ruleset_version: string;
  errored_rule_ids: string[];
  match_start: number | null;
  match_end: number | null;
  occurred_at: Date;
}

const COLUMNS = 'id, prompt, blocked, rule_id, principal_id, ruleset_version, errored_rule_ids, match_start, match_end, occurred_at';
const toAttempt = (r: AuditRow): StoredInjectionAttempt => ({ ...r, id: Number(r.id) });
const HOUR = 3_600_000;

/** The injection-attempt audit in Postgres: append-only for the application. */
export class PgAuditStore implements AuditStore {
  constructor(
    private readonly db: SqlRunner,
    private readonly table = 'guardrails_injection_audit',
  ) {}

  async append(a: InjectionAttempt): Promise<StoredInjectionAttempt> {
    const [row] = await this.db.query<AuditRow>(
      `INSERT INTO ${this.table} (prompt, blocked, rule_id, principal_id, ruleset_version, errored_rule_ids, match_start, match_end, occurred_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [a.prompt, a.blocked, a.rule_id, a.principal_id, a.ruleset_version, JSON.stringify(a.errored_rule_ids), a.match_start, a.match_end, a.occurred_at],
    );
    return toAttempt(row);
  }

  async list(q: AuditListQuery): Promise<KeysetPage<StoredInjectionAttempt>> {
    const where = new WhereBuilder();
    if (q.cursor !== undefined) where.add((p) => `id < ${p}`, q.cursor);
    if (q.blocked !== undefined) where.add((p) => `blocked = ${p}`, q.blocked);
    if (q.rule_id !== undefined) where.add((p) => `rule_id = ${p}`, q.rule_id);
    if (q.principal_id !== undefined) where.add((p) => `principal_id = ${p}`, q.principal_id);
    if (q.q !== undefined) where.add((p) => `prompt LIKE ${p} ESCAPE '!'`, likeContains(q.q));
    if (q.from) where.add((p) => `occurred_at >= ${p}`, q.from);
    if (q.to) where.add((p) => `occurred_at <= ${p}`, q.to);
    const limit = keysetLimit(q.limit);
    const rows = await this.db.query<AuditRow>(
      `SELECT ${COLUMNS} FROM ${this.table} ${where.sql} ORDER BY id DESC LIMIT ${where.next(limit + 1)}`,
      where.params,
    );
    return pageOf(rows.map(toAttempt), limit);
  }

  async get(id: number): Promise<StoredInjectionAttempt | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const [row] = await this.db.query<AuditRow>(`SELECT ${COLUMNS} FROM ${this.table} WHERE id = $1`, [id]);
    return row ? toAttempt(row) : null;
  }

  async trend(w: Required<TimeWindow>): Promise<AuditTrendPoint[]> {
    const rows = await this.db.query<{ date: string; total: string; blocked: string; observed: string }>(
      `SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date,
              count(*) AS total,
              count(*) FILTER (WHERE blocked) AS blocked,
              count(*) FILTER (WHERE NOT blocked AND rule_id IS NOT NULL) AS observed
         FROM ${this.table} WHERE occurred_at >= $1 AND occurred_at <= $2
        GROUP BY 1 ORDER BY 1`,
      [w.from, w.to],
    );
    return rows.map((r) => {
      const total = Number(r.total);
      const blocked = Number(r.blocked);
      return { date: r.date, total, blocked, allowed: total - blocked, observed: Number(r.observed) };
    });
  }

  async totals(w: Required<TimeWindow>): Promise<AuditTotals> {
    const [r] = await this.db.query<{ attempts: string; blocked: string; observed: string }>(
      `SELECT count(*) AS attempts, count(*) FILTER (WHERE blocked) AS blocked,
              count(*) FILTER (WHERE NOT blocked AND rule_id IS NOT NULL) AS observed
         FROM ${this.table} WHERE occurred_at >= $1 AND occurred_at <= $2`,
      [w.from, w.to],
    );
    return { attempts: Number(r.attempts), blocked: Number(r.blocked), observed: Number(r.observed) };
  }

  async hourlyAttempts(until: Date, hours: number): Promise<number[]> {
    const first = Math.floor(until.getTime() / HOUR) * HOUR - (hours - 1) * HOUR;
    const rows = await this.db.query<{ bucket: number; n: string }>(
      `SELECT floor((extract(epoch FROM occurred_at) * 1000 - $1) / ${HOUR})::int AS bucket, count(*) AS n
         FROM ${this.table} WHERE occurred_at >= $2 AND occurred_at <= $3 GROUP BY 1`,
      [first, new Date(first), until],
    );
    const buckets = new Array<number>(hours).fill(0);
    for (const r of rows) if (r.bucket >= 0 && r.bucket < hours) buckets[r.bucket] = Number(r.n);
    return buckets;
  }

  async sweep(before: Date, strategy: RetentionStrategy, dryRun: boolean): Promise<number> {
    if (dryRun) {
      const [r] = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.table} WHERE occurred_at < $1`, [before]);
      return Number(r.n);
    }
    const rows =
      strategy === 'purge'
        ? await this.db.query(`WITH gone AS (DELETE FROM ${this.table} WHERE occurred_at < $1 RETURNING 1) SELECT count(*) AS n FROM gone`, [before])
        : await this.db.query(
            `WITH done AS (
               UPDATE ${this.table} SET prompt = '[anonymized]', principal_id = NULL, errored_rule_ids = '[]'::jsonb, match_start = NULL, match_end = NULL
                WHERE occurred_at < $1 AND (prompt <> '[anonymized]' OR principal_id IS NOT NULL OR match_start IS NOT NULL OR errored_rule_ids <> '[]'::jsonb)
                RETURNING 1)
             SELECT count(*) AS n FROM done`,
            [before],
          );
    return Number((rows[0] as { n: string }).n);
  }
}
