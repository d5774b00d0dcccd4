import { AuditListQuery, AuditStore, AuditTotals, AuditTrendPoint, InjectionAttempt, RetentionStrategy, StoredInjectionAttempt } from '../ports/audit-store.port';
import { KeysetPage, TimeWindow } from '../ports/keyset-page';
import { copy, inWindow, keysetPage } from './keyset';

const HOUR = 3_600_000;

/** In-process audit store (tests, single-process hosts). */
export class MemoryAuditStore implements AuditStore {
  private rows: StoredInjectionAttempt[] = [];
  private nextId = 1;

  async append(attempt: InjectionAttempt): Promise<StoredInjectionAttempt> {
    const row = { ...copy(attempt), tenant_id: attempt.tenant_id ?? null, id: this.nextId++ };
    this.rows.push(row);
    return copy(row);
  }

  async list(query: AuditListQuery): Promise<KeysetPage<StoredInjectionAttempt>> {
    const page = keysetPage(this.rows, query, (r) =>
      (query.blocked === undefined || r.blocked === query.blocked) &&
      (query.rule_id === undefined || r.rule_id === query.rule_id) &&
      (query.principal_id === undefined || r.principal_id === query.principal_id) &&
      (query.q === undefined || r.prompt.includes(query.q)) &&
      inWindow(r.occurred_at, query),
    );
    return copy(page);
  }

  async get(id: number): Promise<StoredInjectionAttempt | null> {
    const row = this.rows.find((r) => r.id === id);
    return row ? copy(row) : null;
  }

  async trend(window: Required<TimeWindow>): Promise<AuditTrendPoint[]> {
    const days = new Map<string, AuditTrendPoint>();
    for (const r of this.rows) {
      if (!inWindow(r.occurred_at, window)) continue;
      const date = r.occurred_at.toISOString().slice(0, 10);
      const p = days.get(date) ?? { date, total: 0, blocked: 0, allowed: 0, observed: 0 };
      p.total++;
      if (r.blocked) p.blocked++;
      else {
        p.allowed++;
        if (r.rule_id !== null) p.observed++;
      }
      days.set(date, p);
    }
    return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
  }

  async totals(window: Required<TimeWindow>): Promise<AuditTotals> {
    const rows = this.rows.filter((r) => inWindow(r.occurred_at, window));
    return {
      attempts: rows.length,
      blocked: rows.filter((r) => r.blocked).length,
      observed: rows.filter((r) => !r.blocked && r.rule_id !== null).length,
    };
  }

  async hourlyAttempts(until: Date, hours: number): Promise<number[]> {
    const lastHourStart = Math.floor(until.getTime() / HOUR) * HOUR;
    const firstHourStart = lastHourStart - (hours - 1) * HOUR;
    const buckets = new Array<number>(hours).fill(0);
    for (const r of this.rows) {
      const t = r.occurred_at.getTime();
      if (t < firstHourStart || t > until.getTime()) continue;
      buckets[Math.floor((t - firstHourStart) / HOUR)]++;
    }
    return buckets;
  }

  async sweep(before: Date, strategy: RetentionStrategy, dryRun: boolean): Promise<number> {
    const old = this.rows.filter((r) => r.occurred_at < before);
    if (dryRun) return old.length;
    if (strategy === 'purge') this.rows = this.rows.filter((r) => r.occurred_at >= before);
    else {
      for (const r of old) Object.assign(r, { prompt: '[anonymized]', principal_id: null, errored_rule_ids: [], match_start: null, match_end: null });
    }
    return old.length;
  }
}
