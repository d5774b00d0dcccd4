import { GuardrailsPorts } from '../guardrails';
import { SettingsStore } from '../ports/settings-store.port';
import { PgApprovalSidecar, PgApprovalStore } from './pg-approval-store';
import { PgAuditStore } from './pg-audit-store';
import { PgFirewallLog } from './pg-firewall-log';
import { PgOutputStats } from './pg-output-stats';
import { PgSettingsStore } from './pg-settings-store';
import { GuardrailsTables, resolveTables, TransactionalSqlRunner } from './tables';

export interface PostgresGuardrailsStores extends Required<Omit<GuardrailsPorts, 'clock' | 'approvalSidecar'>> {
  approvalSidecar?: PgApprovalSidecar;
  settings: SettingsStore;
}

/**
 * Every guardrails store on one Postgres database. `sidecar` follows `hitl_requests.store`: the
 * database sidecar only when it is `database` (null keeps none; `array` is the in-memory one).
 */
export function createPostgresStores(db: TransactionalSqlRunner, options: { tables?: Partial<GuardrailsTables>; sidecar?: boolean } = {}): PostgresGuardrailsStores {
  const t = resolveTables(options.tables);
  return {
    audit: new PgAuditStore(db, { audit: t.audit, hourly: t.audit_hourly }),
    firewallLog: new PgFirewallLog(db, t.firewall_log),
    outputStats: new PgOutputStats(db, t.output_stats),
    approvals: new PgApprovalStore(db, t.approvals),
    approvalSidecar: options.sidecar ? new PgApprovalSidecar(db, t.hitl_requests) : undefined,
    settings: new PgSettingsStore(db, { settings: t.settings, settings_audit: t.settings_audit }),
  };
}
