import { KeysetPage, KeysetQuery, TimeWindow } from './keyset-page';

/** One screened prompt (every screen is recorded: blocked, observed and clean). */
export interface InjectionAttempt {
  /** As `audit_hygiene.prompt_storage` dictates (redacted, hashed, truncated or raw). */
  prompt: string;
  blocked: boolean;
  rule_id: string | null;
  principal_id: string | null;
  /** v1.x addition: the tenant the screened text belongs to, where the host knows it. */
  tenant_id?: string | null;
  ruleset_version: string;
  errored_rule_ids: string[];
  /** [start, end) UTF-8 byte offsets into the stored prompt; null when it was transformed. */
  match_start: number | null;
  match_end: number | null;
  occurred_at: Date;
}

export interface StoredInjectionAttempt extends InjectionAttempt {
  id: number;
}

export interface AuditListQuery extends KeysetQuery, TimeWindow {
  blocked?: boolean;
  rule_id?: string;
  principal_id?: string;
  /** Literal substring of the stored prompt. */
  q?: string;
}

/** Per UTC day: total = blocked + allowed; observed (matched, not blocked) is part of allowed. */
export interface AuditTrendPoint {
  date: string;
  total: number;
  blocked: number;
  allowed: number;
  observed: number;
}

export interface AuditTotals {
  attempts: number;
  blocked: number;
  observed: number;
}

export type RetentionStrategy = 'anonymize' | 'purge';

/**
 * The injection-attempt audit: append-only for the application (no update, no delete); only the
 * retention task anonymizes or purges old rows.
 */
export interface AuditStore {
  append(attempt: InjectionAttempt): Promise<StoredInjectionAttempt>;
  list(query: AuditListQuery): Promise<KeysetPage<StoredInjectionAttempt>>;
  get(id: number): Promise<StoredInjectionAttempt | null>;
  /** Days with no rows are omitted; ascending. */
  trend(window: Required<TimeWindow>): Promise<AuditTrendPoint[]>;
  totals(window: Required<TimeWindow>): Promise<AuditTotals>;
  /** Attempts per hour for `hours` hours ending with the hour containing `until` (oldest first). */
  hourlyAttempts(until: Date, hours: number): Promise<number[]>;
  /** Rows older than `before`: anonymized (prompt "[anonymized]", ids and span nulled) or deleted. */
  sweep(before: Date, strategy: RetentionStrategy, dryRun: boolean): Promise<number>;
}
