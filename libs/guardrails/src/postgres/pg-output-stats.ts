import { emptyOutputCounts, isEmptyOutputCounts, OutputCounts } from '../output/output-counts';
import { TimeWindow } from '../ports/keyset-page';
import { OutputStatsStore } from '../ports/output-stats.port';
import { SqlRunner } from './tables';

const KINDS = ['html_stripped', 'markdown_sanitized', 'structured_validation_failure', 'pii_redaction'] as const;
const DETECTOR = 'pii:';

/** How long records wait for a write in flight before they are written without it. */
export const STALL_MS = 2_000;

/** One counter's increment, at the instant its output was handled. */
interface Increment {
  at: Date;
  counter: string;
  n: number;
}

/** Increments waiting for the write in flight to end, and the callers waiting for them. */
interface Batch {
  increments: Increment[];
  done: Promise<void>;
  settle: (error?: unknown) => void;
}

/**
 * Output-handling counters in hourly buckets: a record adds to its hour's rows with an upsert, so
 * concurrent hosts never lose an increment. A window's edges count whole hours.
 *
 * Every answer that handled something records, so under load many records arrive while one is
 * being written: they wait for it and are then written together, one statement summing them per
 * hour and counter (the hour is Postgres's `date_trunc`, as for a single record). Concurrent
 * answers then cost one round trip between them instead of one each, and no longer queue on the
 * same rows' locks. `record` resolves once its own counts are stored.
 */
export class PgOutputStats implements OutputStatsStore {
  /** The write records join while it runs, when it started, and the batch gathered behind it. */
  private current: { since: number; waiting?: Batch } | undefined;

  constructor(
    private readonly db: SqlRunner,
    private readonly table = 'guardrails_output_stats',
    private readonly stallMs = STALL_MS,
  ) {}

  record(counts: OutputCounts, at: Date): Promise<void> {
    if (isEmptyOutputCounts(counts)) return Promise.resolve();
    const increments: Increment[] = [];
    for (const kind of KINDS) if (counts[kind] > 0) increments.push({ at, counter: kind, n: counts[kind] });
    for (const [detector, n] of Object.entries(counts.pii.by_detector)) {
      if (n > 0) increments.push({ at, counter: DETECTOR + detector, n });
    }
    // Wall time, not the injectable clock: it judges how long a real write has been running. A write that hangs
    // holds back only the records of its first `stallMs`; later ones are written without it.
    const current = this.current;
    if (current && performance.now() - current.since < this.stallMs) {
      current.waiting ??= batch();
      current.waiting.increments.push(...increments);
      return current.waiting.done;
    }
    const own = batch();
    own.increments.push(...increments);
    this.write(own);
    return own.done;
  }

  /**
   * Writes a batch; when it ends, the batch that gathered behind it (if any) is written next. Only a
   * write that records still join (`current`) hands that role on: a write overtaken after a stall
   * writes what gathered behind it and ends its chain, so chains never multiply.
   */
  private write(written: Batch, joinable = true): void {
    const flight: { since: number; waiting?: Batch } = { since: performance.now() };
    if (joinable) this.current = flight;
    const next = (error?: unknown) => {
      written.settle(error);
      const stillJoined = this.current === flight;
      if (stillJoined) this.current = undefined;
      if (flight.waiting) this.write(flight.waiting, stillJoined || this.current === undefined);
    };
    this.upsert(written.increments).then(
      () => next(),
      (error: unknown) => next(error ?? new Error('output stats not written')),
    );
  }

  private async upsert(increments: Increment[]): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.table} (bucket, counter, count)
       SELECT date_trunc('hour', t.a), t.c, sum(t.n) FROM unnest($1::timestamptz[], $2::text[], $3::bigint[]) AS t(a, c, n) GROUP BY 1, 2
       ON CONFLICT (bucket, counter) DO UPDATE SET count = ${this.table}.count + EXCLUDED.count`,
      [increments.map((i) => i.at), increments.map((i) => i.counter), increments.map((i) => i.n)],
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

function batch(): Batch {
  let settle!: Batch['settle'];
  const done = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
  // A batch nobody awaits any more must not surface as an unhandled rejection; every caller still sees the error.
  done.catch(() => undefined);
  return { increments: [], done, settle };
}
