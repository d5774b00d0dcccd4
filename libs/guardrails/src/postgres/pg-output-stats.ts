import { emptyOutputCounts, isEmptyOutputCounts, OutputCounts } from '../output/output-counts';
import { TimeWindow } from '../ports/keyset-page';
import { OutputStatsStore } from '../ports/output-stats.port';
import { SqlRunner } from './tables';

const KINDS = ['html_stripped', 'markdown_sanitized', 'structured_validation_failure', 'pii_redaction'] as const;
const DETECTOR = 'pii:';

/**
 * Output-handling counters in hourly buckets: a record adds to its hour's rows with one upsert, so
 * concurrent hosts never lose an increment. A window's edges count whole hours.
 */
export class PgOutputStats implements OutputStatsStore {
  constructor(
    private readonly db: SqlRunner,
    private readonly table = 'guardrails_output_stats',
  ) {}

  async record(counts: OutputCounts, at: Date): Promise<void> {
    if (isEmptyOutputCounts(counts)) return;
    const counters: string[] = [];
    const values: number[] = [];
    for (const kind of KINDS) {
      if (counts[kind] > 0) {
        counters.push(kind);
        values.push(counts[kind]);
      }
    }
    for (const [detector, n] of Object.entries(counts.pii.by_detector)) {
      if (n > 0) {
        counters.push(DETECTOR + detector);
        values.push(n);
      }
    }
    await this.db.query(
      `INSERT INTO ${this.table} (bucket, counter, count)
       SELECT date_trunc('hour', $1::timestamptz), c, n FROM unnest($2::text[], $3::bigint[]) AS t(c, n)
       ON CONFLICT (bucket, counter) DO UPDATE SET count = ${this.table}.count + EXCLUDED.count`,
      [at, counters, values],
    );
  }

  async totals(w: Required<TimeWindow>): Promise<OutputCounts> {
    const rows = await this.db.query<{ counter: string; n: string }>(
      `SELECT counter, sum(count) AS n FROM ${this.table}
        WHERE bucket >= date_trunc('hour', $1::timestamptz) AND bucket <= $2 GROUP BY counter ORDER BY counter`,
      [w.from, w.to],
    );
    const totals = emptyOutputCounts();
    for (const r of rows) {
      const n = Number(r.n);
      if (r.counter.startsWith(DETECTOR)) totals.pii.by_detector[r.counter.slice(DETECTOR.length)] = n;
      else if ((KINDS as readonly string[]).includes(r.counter)) totals[r.counter as (typeof KINDS)[number]] = n;
    }
    return totals;
  }
}
