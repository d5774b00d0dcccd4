import { ApprovalSidecarStore } from './ports/approval-store.port';
import { AuditStore } from './ports/audit-store.port';
import { GuardrailsSettings } from './settings/setting-types';

export interface RetentionRequest {
  strategy: GuardrailsSettings['retention.strategy'];
  days: number;
  dryRun: boolean;
  /** Who runs it; required for a run that changes data (it is written to the task's log). */
  actor?: string;
  now: Date;
}

export interface RetentionReport {
  strategy: GuardrailsSettings['retention.strategy'];
  days: number;
  dry_run: boolean;
  cutoff: string | null;
  audit: number;
  hitl_requests: number;
}

/**
 * The retention task: rows older than `days` in the injection audit and the HITL sidecar are
 * anonymized or purged (`keep` does nothing). The firewall log, output stats and settings changes
 * are never swept. A run that changes data needs an actor and at least one day, so a slip cannot
 * erase today's audit.
 */
export async function runRetention(stores: { audit?: AuditStore; sidecar?: ApprovalSidecarStore }, r: RetentionRequest): Promise<RetentionReport> {
  if (!Number.isInteger(r.days) || r.days < 0) throw new Error('days must be an integer >= 0');
  const report: RetentionReport = { strategy: r.strategy, days: r.days, dry_run: r.dryRun, cutoff: null, audit: 0, hitl_requests: 0 };
  if (r.strategy === 'keep') return report;
  if (!r.dryRun) {
    if (!r.actor?.trim()) throw new Error('an actor is required for a run that changes data (or use --dry-run)');
    if (r.days < 1) throw new Error('days must be at least 1 for a run that changes data');
  }
  const cutoff = new Date(r.now.getTime() - r.days * 86_400_000);
  report.cutoff = cutoff.toISOString();
  if (stores.audit) report.audit = await stores.audit.sweep(cutoff, r.strategy, r.dryRun);
  if (stores.sidecar) report.hitl_requests = await stores.sidecar.sweep(cutoff, r.strategy, r.dryRun);
  return report;
}
