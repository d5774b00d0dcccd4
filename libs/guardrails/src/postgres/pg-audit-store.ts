import { AuditListQuery, AuditStore, AuditTotals, AuditTrendPoint, InjectionAttempt, RetentionStrategy, StoredInjectionAttempt } from '../ports/audit-store.port';
import { KeysetPage, TimeWindow } from '../ports/keyset-page';
import { storableText, storableValue } from '../shared/text';
import { keysetLimit, pageOf } from './keyset-sql';
import { likeContains, SqlRunner, WhereBuilder } from './tables';

interface AuditRow {
  id: string;
  prompt: string;
  blocked: boolean;
  rule_id: string | null;
  principal_id: string | null;
  tenant_id: string | null;
  ruleset_version: string;
  errored_rule_ids: string[];
  match_start: number | null;
  match_end: number | null;
  occurred_at: Date;
}

const COLUMNS = 'id, prompt, blocked, rule_id, principal_id, tenant_id, ruleset_version, errored_rule_ids, match_start, match_end, occurred_at';
const toAttempt = (r: AuditRow): StoredInjectionAttempt => ({ ...r, id: Number(r.id) });
const HOUR = 3_600_000;

interface HourCounts {
  /** Start of the UTC hour, ms since the epoch. */
  hour: number;
  attempts: number;
  blocked: number;
  observed: number;
}

const floorHour = (t: number) => Math.floor(t / HOUR) * HOUR;
const ceilHour = (t: number) => Math.ceil(t / HOUR) * HOUR;

/**
 * The injection-attempt audit in Postgres: append-only for the application. Counts over time come
 * from the hourly roll-up for whole hours and from the audit rows for the partial hours at a
 * window's edges, so they are exact and cost a few dozen rows however large the audit is.
 */
export class PgAuditStore implements AuditStore {
  private readonly table: string;
  private readonly hourly: string;

  constructor(
    private readonly db: SqlRunner,
    tables: { audit: string; hourly: string } = { audit: 'guardrails_injection_audit', hourly: 'guardrails_injection_audit_hourly' },
  ) {
    this.table = tables.audit;
    this.hourly = tables.hourly;
  }

  async append(a: InjectionAttempt): Promise<StoredInjectionAttempt> {
    const [row] = await this.db.query<AuditRow>(
      `WITH row AS (
         INSERT INTO ${this.table} (prompt, blocked, rule_id, principal_id, ruleset_version, errored_rule_ids, match_start, match_end, occurred_at, tenant_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}
       ), rollup AS (
         INSERT INTO ${this.hourly} AS h (bucket, attempts, blocked, observed)
         SELECT date_trunc('hour', occurred_at), 1, blocked::int, (NOT blocked AND rule_id IS NOT NULL)::int FROM row
         ON CONFLICT (bucket) DO UPDATE SET attempts = h.attempts + 1, blocked = h.blocked + EXCLUDED.blocked, observed = h.observed + EXCLUDED.observed
       )
       SELECT * FROM row`,
      // Any content reaches the audit (no input can make its write fail): see storableText.
      [
        storableText(a.prompt),
        a.blocked,
        a.rule_id === null ? null : storableText(a.rule_id),
        a.principal_id === null ? null : storableText(a.principal_id),
        storableText(a.ruleset_version),
        JSON.stringify(storableValue(a.errored_rule_ids)),
        a.match_start,
        a.match_end,
        a.occurred_at,
        a.tenant_id == null ? null : storableText(a.tenant_id),
      ],
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
    // Same rows and order either way; `id + 0` only stops Postgres from walking the primary key
    // newest first, which costs every row newer than the window before the first match.
    const order = (await this.windowIsCheaperThanNewerRows(q)) ? 'id + 0 DESC' : 'id DESC';
    const rows = await this.db.query<AuditRow>(
      `SELECT ${COLUMNS} FROM ${this.table} ${where.sql} ORDER BY ${order} LIMIT ${where.next(limit + 1)}`,
      where.params,
    );
    return pageOf(rows.map(toAttempt), limit);
  }

  /**
   * For a time window, whether reading the window through the `occurred_at` index and sorting it
   * beats walking ids down from the newest row: decided from the roll-up's exact counts.
   */
  private async windowIsCheaperThanNewerRows(q: AuditListQuery): Promise<boolean> {
    if (!q.from && !q.to) return false;
    const to = q.to ?? new Date(Date.now() + 86_400_000);
    const [inWindow, newer] = await Promise.all([
      this.totals({ from: q.from ?? new Date(0), to }),
      q.to ? this.totals({ from: new Date(to.getTime() + 1), to: new Date(Math.max(Date.now(), to.getTime()) + 86_400_000) }) : Promise.resolve({ attempts: 0 }),
    ]);
    return inWindow.attempts < newer.attempts;
  }

  async get(id: number): Promise<StoredInjectionAttempt | null> {
    if (!Number.isSafeInteger(id) || id < 1) return null;
    const [row] = await this.db.query<AuditRow>(`SELECT ${COLUMNS} FROM ${this.table} WHERE id = $1`, [id]);
    return row ? toAttempt(row) : null;
  }

  async trend(w: Required<TimeWindow>): Promise<AuditTrendPoint[]> {
    const days = new Map<string, AuditTrendPoint>();
    for (const h of await this.countsByHour(w)) {
      const date = new Date(h.hour).toISOString().slice(0, 10);
      const p = days.get(date) ?? { date, total: 0, blocked: 0, allowed: 0, observed: 0 };
      p.total += h.attempts;
      p.blocked += h.blocked;
      p.allowed += h.attempts - h.blocked;
      p.observed += h.observed;
      days.set(date, p);
    }
    return [...days.values()].filter((p) => p.total > 0).sort((a, b) => a.date.localeCompare(b.date));
  }

  async totals(w: Required<TimeWindow>): Promise<AuditTotals> {
    const totals = { attempts: 0, blocked: 0, observed: 0 };
    for (const h of await this.countsByHour(w)) {
      totals.attempts += h.attempts;
      totals.blocked += h.blocked;
      totals.observed += h.observed;
    }
    return totals;
  }

  async hourlyAttempts(until: Date, hours: number): Promise<number[]> {
    const first = floorHour(until.getTime()) - (hours - 1) * HOUR;
    const buckets = new Array<number>(hours).fill(0);
    for (const h of await this.countsByHour({ from: new Date(first), to: until })) {
      const i = (h.hour - first) / HOUR;
      if (i >= 0 && i < hours) buckets[i] += h.attempts;
    }
    return buckets;
  }

  /** Exact counts per UTC hour of [from, to]: whole hours from the roll-up, partial ones from the rows. */
  private async countsByHour(w: Required<TimeWindow>): Promise<HourCounts[]> {
    const from = w.from.getTime();
    const to = w.to.getTime();
    if (to < from) return [];
    const wholeFrom = ceilHour(from);
    const wholeTo = floorHour(to + 1); // hours ending at or before `to` (inclusive bound)
    const raw = (a: number, b: number) =>
      this.db.query<{ hour: Date; attempts: string; blocked: string; observed: string }>(
        `SELECT date_trunc('hour', occurred_at) AS hour, count(*) AS attempts, count(*) FILTER (WHERE blocked) AS blocked,
                count(*) FILTER (WHERE NOT blocked AND rule_id IS NOT NULL) AS observed
           FROM ${this.table} WHERE occurred_at >= $1 AND occurred_at <= $2 GROUP BY 1`,
        [new Date(a), new Date(b)],
      );
    const parts =
      wholeFrom >= wholeTo
        ? [raw(from, to)]
        : [
            wholeFrom > from ? raw(from, wholeFrom - 1) : Promise.resolve([]),
            this.db.query<{ hour: Date; attempts: string; blocked: string; observed: string }>(
              `SELECT bucket AS hour, attempts, blocked, observed FROM ${this.hourly} WHERE bucket >= $1 AND bucket < $2`,
              [new Date(wholeFrom), new Date(wholeTo)],
            ),
            wholeTo <= to ? raw(wholeTo, to) : Promise.resolve([]),
          ];
    const rows = (await Promise.all(parts)).flat();
    return rows.map((r) => ({ hour: new Date(r.hour).getTime(), attempts: Number(r.attempts), blocked: Number(r.blocked), observed: Number(r.observed) }));
  }

  async sweep(before: Date, strategy: RetentionStrategy, dryRun: boolean): Promise<number> {
    if (dryRun) {
      const [r] = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.table} WHERE occurred_at < $1`, [before]);
      return Number(r.n);
    }
    const rows =
      strategy === 'purge'
        ? // The roll-up loses what the audit loses, so counts never disagree with the rows.
          await this.db.query(
            `WITH gone AS (DELETE FROM ${this.table} WHERE occurred_at < $1 RETURNING occurred_at, blocked, rule_id),
                  per_hour AS (SELECT date_trunc('hour', occurred_at) AS bucket, count(*) AS attempts, count(*) FILTER (WHERE blocked) AS blocked,
                                      count(*) FILTER (WHERE NOT blocked AND rule_id IS NOT NULL) AS observed FROM gone GROUP BY 1),
                  rolled AS (UPDATE ${this.hourly} h SET attempts = h.attempts - p.attempts, blocked = h.blocked - p.blocked, observed = h.observed - p.observed
                               FROM per_hour p WHERE h.bucket = p.bucket)
             SELECT count(*) AS n FROM gone`,
            [before],
          )
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
