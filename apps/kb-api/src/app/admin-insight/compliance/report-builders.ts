import { Injectable } from '@nestjs/common';
import { iso } from '../sql-filter';
import { ComplianceSourcesRepository } from './compliance-sources.repository';

export interface ReportContent {
  summary: Record<string, unknown>;
  /** Flat rows: the CSV download is these, one line each. */
  rows: Array<Record<string, unknown>>;
  /** The CSV header, fixed when generated (stored JSON does not keep key order). */
  columns?: string[];
}

/** Columns that hold or point at a person, by what they are. `name` counts only next to an e-mail (a person's name). */
const PERSONAL_COLUMNS: Record<string, string> = {
  email: 'contact',
  email_key: 'contact',
  recipient: 'contact',
  ip: 'network identifier',
  ip_address: 'network identifier',
  user_agent: 'device',
  user_id: 'user reference',
  actor_user_id: 'user reference',
  actor_label: 'user reference',
  created_by: 'user reference',
  updated_by: 'user reference',
  computed_by: 'user reference',
  subject: 'user reference',
  question: 'free text',
  answer: 'free text',
  content: 'free text',
};

/** How long each kind of record is kept by default, in days, and which timestamp ages it. */
export const RETENTION_DEFAULTS: Record<string, { column: string; days: number }> = {
  kb_chat_logs: { column: 'created_at', days: 365 },
  kb_conversations: { column: 'updated_at', days: 365 },
  kb_activity_logs: { column: 'created_at', days: 365 },
  kb_application_logs: { column: 'created_at', days: 90 },
  kb_promotion_audit: { column: 'created_at', days: 730 },
  kb_notifications: { column: 'created_at', days: 180 },
  kb_sessions: { column: 'last_seen_at', days: 30 },
  kb_personal_access_tokens: { column: 'expires_at', days: 0 },
  kb_insight_snapshots: { column: 'created_at', days: 365 },
  kb_compliance_reports: { column: 'created_at', days: 730 },
};

/** The three compliance reports, computed from the live tables of one tenant. */
@Injectable()
export class ReportBuilders {
  constructor(private readonly sources: ComplianceSourcesRepository) {}

  /** Personal data per tenant-scoped table (rows holding a value per personal column), then PII found in chat logs. */
  async dataInventory(tenantId: string): Promise<ReportContent> {
    const tables = await this.sources.tenantTables();
    const rows: Array<Record<string, unknown>> = [];
    let tablesWithPersonalData = 0;
    for (const { table_name: table, columns } of tables) {
      const personal = columns.filter((c) => PERSONAL_COLUMNS[c]);
      if (columns.includes('email') && columns.includes('name')) personal.push('name');
      if (personal.length === 0) continue;
      tablesWithPersonalData++;
      const counts = await this.sources.valueCounts(tenantId, table, personal);
      personal.forEach((column, i) =>
        rows.push({
          section: 'table',
          table,
          column,
          category: PERSONAL_COLUMNS[column] ?? 'identity',
          rows_with_value: counts.withValue[i],
          table_rows: counts.total,
        }),
      );
    }
    const detectors = await this.sources.chatLogPiiByDetector(tenantId);
    for (const d of detectors)
      rows.push({
        section: 'chat_log_pii',
        table: 'kb_chat_logs',
        detector: d.detector,
        hits: d.hits,
        logs_with_hits: d.logs,
      });
    const tokens = await this.sources.tokenizedValueCount(tenantId);
    return {
      summary: {
        tables_scanned: tables.length,
        tables_with_personal_data: tablesWithPersonalData,
        chat_log_pii_hits: detectors.reduce((s, d) => s + d.hits, 0),
        tokenized_values_stored: tokens,
      },
      rows,
    };
  }

  /** Everyone who can act in the tenant: home users and users holding a role or membership there. */
  async accessReview(tenantId: string): Promise<ReportContent> {
    const users = await this.sources.accessReviewUsers(tenantId);
    const rows = users.map((u: Record<string, unknown>) => ({
      user_id: String(u['id']),
      name: u['name'],
      email: u['email'],
      active: u['active'],
      home_tenant: u['home_tenant'],
      roles: u['roles'],
      permissions: u['permissions'],
      memberships: u['memberships'],
      active_tokens: u['active_tokens'],
      token_last_used_at: iso(u['token_last_used_at']),
      session_last_seen_at: iso(u['session_last_seen_at']),
      tokens: u['tokens'],
      created_at: iso(u['created_at']),
    }));
    const count = (pred: (r: (typeof rows)[number]) => boolean) => rows.filter(pred).length;
    return {
      summary: {
        users: rows.length,
        active_users: count((r: Record<string, unknown>) => r['active'] === true),
        without_role: count((r: Record<string, unknown>) => (r['roles'] as string[]).length === 0),
        admins: count((r: Record<string, unknown>) =>
          (r['roles'] as string[]).some((x) => x === 'admin' || x === 'super-admin'),
        ),
        with_active_tokens: count(
          (r: Record<string, unknown>) => (r['active_tokens'] as number) > 0,
        ),
      },
      rows,
    };
  }

  /** Per table: age of the tenant's rows, and how many the retention window would remove today. */
  async retention(tenantId: string, days: Record<string, number>): Promise<ReportContent> {
    const rows: Array<Record<string, unknown>> = [];
    let wouldRemove = 0;
    for (const [table, { column, days: fallback }] of Object.entries(RETENTION_DEFAULTS)) {
      const keep = days[table] ?? fallback;
      const r = await this.sources.ageProfile(tenantId, table, column, keep);
      wouldRemove += r.would_remove;
      rows.push({
        table,
        aged_by: column,
        retention_days: keep,
        rows: r.rows,
        oldest: iso(r.oldest),
        newest: iso(r.newest),
        age_0_30_days: r.age_0_30_days,
        age_31_90_days: r.age_31_90_days,
        age_91_365_days: r.age_91_365_days,
        age_over_365_days: r.age_over_365_days,
        would_remove: r.would_remove,
      });
    }
    return {
      summary: {
        tables: rows.length,
        would_remove: wouldRemove,
        retention_days: Object.fromEntries(rows.map((r) => [r['table'], r['retention_days']])),
      },
      rows,
    };
  }
}
